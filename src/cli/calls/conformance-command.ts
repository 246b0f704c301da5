/**
 * `concord conformance -a <agent>` (a2a-cli SPEC v0.2 §5.1, `A2ACLI_CONFORM_001`; decision 0169):
 * a smoke check of a live agent. With `--tck <dir>` (or `A2ACLI_TCK`), a checkout of the A2A TCK's
 * 1.0 line, it runs the kit against the agent's base URL, at `--level must` unless told otherwise,
 * its output on stderr, and reports the kit's `reports/compatibility.json` per requirement.
 * Without one it runs Concord's own checklist (src/check, what `concord check` runs) and says, on
 * stderr and in the report, that this is not the TCK and how to get it. The card is resolved first,
 * through the calling commands' resolver and guard, so an agent that cannot be reached is exit 3 and
 * one whose card requires credentials none were given for is exit 4, before anything runs. A check
 * that fails exits 1, with the report (not an error envelope) on stdout.
 */
import { bearer, resolveAgentCard, type Credential, type ResolvedCard } from '../../client/index.js';
import { selectCredentials } from '../../client/internal.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CardResolutionError, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { requiredSchemes } from './agent-connection.js';
import { agentOf } from './agent-ref.js';
import {
  CALL_OPTIONS,
  networkPolicyFor,
  outputOf,
  parseCall,
  printHelp,
  requestTimeoutOf,
  startTimeout,
  withSpecCredentials,
} from './call-flags.js';
import { runCall, type CallContext } from './call-runner.js';
import {
  checklistNotice,
  fromChecklist,
  fromKit,
  reportText,
  type ConformanceReport,
} from './conformance-report.js';
import {
  findKit,
  kitArguments,
  kitTransport,
  runKit,
  TCK_CLONE,
  TCK_LEVELS,
  type TckLevel,
} from './tck-kit.js';

/** The options `conformance` takes (the completion script reads their names from here). */
export const CONFORMANCE_OPTIONS = {
  'agent-card': CALL_OPTIONS['agent-card'],
  output: CALL_OPTIONS.output,
  json: CALL_OPTIONS.json,
  transport: CALL_OPTIONS.transport,
  bearer: CALL_OPTIONS.bearer,
  token: CALL_OPTIONS.token,
  'allow-private': CALL_OPTIONS['allow-private'],
  timeout: CALL_OPTIONS.timeout,
  'request-timeout': CALL_OPTIONS['request-timeout'],
  verbose: CALL_OPTIONS.verbose,
  config: CALL_OPTIONS.config,
  help: CALL_OPTIONS.help,
  tck: { type: 'string' },
  level: { type: 'string' },
} as const;

/** Usage text of `conformance`. */
export const CONFORMANCE_USAGE = `Usage: concord conformance -a <agent> [--tck <dir>] [options]

Smoke-checks a live agent. With --tck, against the A2A TCK (the A2A project's conformance kit,
a Python project): the kit runs against the agent's base URL, its output goes to stderr, and
each requirement it reports is printed as PASS, FAIL or SKIP. Without --tck, Concord's own
conformance checklist runs instead (the rules of concord check), and stderr and the report say
plainly that this is NOT the A2A TCK.

Options:
  -a, --agent-card <ref>  the agent: a host (localhost:4000), an origin or base URL (the kit
                          reads <base>/.well-known/agent-card.json). Not a card file: the
                          checks need the live agent
  --tck <dir>             a checkout of the A2A TCK's 1.0 line (default: $A2ACLI_TCK):
                            ${TCK_CLONE}
                          run with uv run when uv is on the PATH and the kit has a
                          pyproject.toml, else with python3. The 0.3 line is refused
  --level <level>         the kit's requirement level: must (default, a smoke check), should,
                          may, or all
  --transport <binding>   the kit's transports: jsonrpc, http_json (rest) or grpc; repeatable
                          (default: the kit's, every one the card declares)
  --bearer <token>        bearer token (default: $A2ACLI_BEARER, then $CONCORD_TOKEN; --token is
                          an alias). The kit gets it in its environment (A2A_AUTH_TYPE=bearer,
                          A2A_AUTH_TOKEN), never on its command line; it is never printed.
                          A secret given as a flag shows in the process table and the shell
                          history: prefer the environment variable
  -o, --output <format>   text (default) or json: one report document, the same shape for the
                          kit and the checklist ("source": "a2a-tck" or "concord-checklist")
  --verbose               pass -v to the kit; list why each requirement was skipped
  --allow-private         allow private and loopback targets beyond a loopback URL you typed
  --timeout <duration>    stop the kit or the checklist after this long: A2ACLI_ERR_TIMEOUT, exit 5
  --request-timeout <duration>
                          each request Concord makes (the card, the checklist's; default 10s for
                          the checklist)
  --config <path>         the local .env file (A2ACLI_AGENT_CARD, A2ACLI_TCK, A2ACLI_BEARER...)

Exit codes: 0 nothing failed (skips allowed); 1 a requirement failed (the report, with
"ok": false, is still printed), or the kit ran but left no report (CONCORD_ERR_TCK_FAILED), or
cannot be started (no uv, no python3: CONCORD_ERR_TCK_UNAVAILABLE); 2 bad arguments, --tck not a
checkout of the kit's 1.0 line; 3 the agent or its card cannot be reached; 4 its card requires
credentials none were given for; 5 --timeout.`;

/** The agent's base URL as the kit takes it: the card must be at `<base>/.well-known/agent-card.json`. */
function sutHostOf(cardUrl: string): string {
  const suffix = '/.well-known/agent-card.json';
  const url = new URL(cardUrl);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith(suffix))
    throw new UsageError(
      `the A2A TCK reads the agent's card at <base URL>${suffix}, and this agent's card is at ${cardUrl}; ` +
        'give -a the base URL under which the card is served there',
    );
  url.pathname = url.pathname.slice(0, -suffix.length);
  return url.href.replace(/\/$/, '');
}

/** Rejects when `signal` fires, so a check that takes no signal still ends on time. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The level `--level` names. */
function levelOf(value: string | undefined): TckLevel {
  const level = (value ?? 'must').toLowerCase();
  if (!(TCK_LEVELS as readonly string[]).includes(level))
    throw new UsageError(`--level: expected must, should, may or all, got ${JSON.stringify(value)}`);
  return level as TckLevel;
}

/** Runs `conformance`; returns the exit code. */
export function conformanceCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(
    io,
    'conformance',
    args,
    async (context) => {
      const { values: given, positionals } = parseCall(
        { args, allowPositionals: true, options: CONFORMANCE_OPTIONS },
        io,
      );
      if (given.help === true) return printHelp(io, CONFORMANCE_USAGE, given);
      const { ref, rest } = agentOf(given, positionals, CONFORMANCE_USAGE);
      if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
      if (ref.kind !== 'url')
        throw new UsageError(
          `-a ${ref.typed}: conformance checks a live agent; give its host or base URL, not a card file`,
        );
      const values = withSpecCredentials(given);
      const json = outputOf(values) === 'json';
      const level = levelOf(values.level);
      const transports = [...new Set((values.transport ?? []).map(kitTransport))];
      const requestTimeout = requestTimeoutOf(values);
      const tckDir = values.tck === undefined || values.tck === '' ? undefined : values.tck;
      // The kit is looked at before anything goes to the agent: a wrong --tck is a usage error.
      const kit = tckDir === undefined ? undefined : findKit(tckDir);
      startTimeout(values, context);
      const token = values.token ?? (process.env.CONCORD_TOKEN || undefined);
      const card = await resolveCard(ref.url, values['allow-private'] === true, requestTimeout, context, io);
      refuseMissingCredentials(card, ref.url.href, token, kit !== undefined);

      let report: ConformanceReport;
      if (kit !== undefined) {
        const sutHost = sutHostOf(card.url);
        const run = await runKit(
          kit,
          kitArguments(sutHost, { transports, level, verbose: values.verbose === true }),
          token,
          io,
          context.signal,
        );
        report = fromKit(kit, run, sutHost, level, transports);
      } else {
        const notice = checklistNotice(TCK_CLONE);
        io.err(`notice: concord conformance: ${notice}`);
        if (values.level !== undefined || transports.length > 0)
          io.err(
            'notice: --level and --transport choose what the A2A TCK runs; the checklist checks every rule over every interface the card declares',
          );
        const { checkAgent } = await import('../../check/index.js');
        const checked = await abortable(
          checkAgent(ref.url.href, {
            ...networkPolicyFor(ref.url, values['allow-private'] === true),
            ...(token === undefined ? {} : { token }),
            ...(requestTimeout === undefined ? {} : { timeoutMs: requestTimeout }),
          }),
          context.signal,
        );
        report = fromChecklist(checked, notice);
      }
      io.write(json ? `${JSON.stringify(report)}\n` : reportText(report, values.verbose === true));
      if (report.ok) return EXIT.OK;
      const failed = report.requirements.filter((r) => r.status === 'FAIL').map((r) => r.id);
      io.err(
        failed.length > 0
          ? `warning: the agent failed ${failed.length} of ${report.requirements.length} ${report.source === 'a2a-tck' ? 'requirements' : 'checklist rules'}: ${failed.join(', ')}`
          : `warning: the A2A TCK exited ${report.kit?.exitCode ?? 1} though no requirement is marked FAIL; see its output above`,
      );
      return EXIT.FAILURE;
    },
    undefined,
    'the conformance check finished',
  );
}

/** The agent's card, through the calling commands' resolver and guard (no card: exit 3). */
async function resolveCard(
  url: URL,
  allowPrivate: boolean,
  timeoutMs: number | undefined,
  context: CallContext,
  io: CliIo,
): Promise<ResolvedCard> {
  try {
    return await resolveAgentCard(url, {
      ...networkPolicyFor(url, allowPrivate),
      signal: context.signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      onWarning: (w) => io.err(`warning: ${w.url} ${w.path || '/'}: ${w.message}`),
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new CardResolutionError(error);
  }
}

/**
 * A card that admits no anonymous caller, and no bearer token that fits it: exit 4 before the
 * check runs (every request would be refused). The kit's own credential settings
 * (`A2A_AUTH_TYPE`, `A2A_AUTH_HEADERS` in its environment) count as given.
 */
function refuseMissingCredentials(
  resolved: ResolvedCard,
  agent: string,
  token: string | undefined,
  tck: boolean,
): void {
  if (tck && (process.env.A2A_AUTH_TYPE || process.env.A2A_AUTH_HEADERS)) return;
  const needed = requiredSchemes(resolved.card, agent);
  if (needed === undefined) return;
  const credentials: Credential[] = token === undefined ? [] : [bearer(token)];
  if (selectCredentials(resolved.card, credentials).length > 0) return;
  throw new CliFailure(
    A2ACLI_ERR.CREDENTIALS_MISSING,
    `the card of "${resolved.card.name}" requires credentials (${needed.names.join(' or ')}) and ${
      token === undefined ? 'none were given' : 'the bearer token given fits none of its schemes'
    }; conformance presents a bearer token only`,
    EXIT.AUTH,
    'pass --bearer <token> (or set A2ACLI_BEARER)',
  );
}

/**
 * `concord check <url>`: the conformance self-check of a live agent (src/check): a pass / fail /
 * skip table per rule of the conformance checklist (src/check/rules.ts), with evidence for failures. The network
 * policy is the calling commands' (decision 0038): a loopback URL the user typed is trusted, any
 * other private target needs `--allow-private`.
 */
import { parseArgs } from 'node:util';
import { checkAgent, formatCheckReport } from '../../check/index.js';
import { agentUrl, networkPolicyFor } from '../calls/call-flags.js';
import { UsageError } from '../exit-codes.js';
import { parseJsonArgument } from '../calls/message-input.js';

/** Usage text of `check`. */
export const CHECK_USAGE = `Usage: concord check <url> [options]

Checks a live agent against the A2A conformance checklist (src/check/rules.ts), over every interface its
card declares, and prints pass / FAIL / skip per rule with the evidence of each failure.

Options:
  --token <token>      bearer token to present on every call (default: $CONCORD_TOKEN)
  --text <text>        the message sent to create tasks (default "Hello from concord check")
  --data <json>        send this JSON as a data part (application/json) instead of the text, for
                       agents that take structured input only (e.g. the dealer example:
                       --data '{"type":"dealer.information.request"}')
  --wait-text <text>   a message the agent answers by working until canceled (e.g. "wait" for
                       Concord's echo example); enables the open-task rules 20, 34 and 36
  --allow-private      allow private and loopback targets beyond a loopback URL you typed
  --timeout <ms>       per request, and how long a stream may take (default 10000)
  --json               print the report as one JSON object

Exit codes: 0 every rule tested passed; 1 a rule failed; 2 bad arguments.`;

type Out = (line: string) => void;

const stderr: Out = (line) => {
  process.stderr.write(`${line}\n`);
};

/** Runs `check`; returns the exit code. */
export async function checkCommand(args: string[], out: Out, err: Out = stderr): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  let url: URL;
  let timeoutMs: number | undefined;
  let data: { data: unknown; mediaType: string } | undefined;
  try {
    const parsed = parse(args);
    values = parsed.values;
    if (values.help === true) {
      out(CHECK_USAGE);
      return 0;
    }
    url = agentUrl(parsed.positionals[0], CHECK_USAGE);
    timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new UsageError(`--timeout: expected a positive number of milliseconds, got ${values.timeout}`);
    if (values.data !== undefined) {
      if (values.text !== undefined) throw new UsageError('--data and --text: give one message, not both');
      data = { data: parseJsonArgument(values.data, '--data'), mediaType: 'application/json' };
    }
  } catch (error) {
    err(`concord check: ${(error as Error).message}`);
    return 2;
  }
  const token = values.token ?? process.env.CONCORD_TOKEN;
  const report = await checkAgent(url.href, {
    ...networkPolicyFor(url, values['allow-private'] === true),
    ...(token === undefined || token === '' ? {} : { token }),
    text: values.text,
    data,
    waitText: values['wait-text'],
    timeoutMs,
  });
  out(values.json === true ? JSON.stringify(report, null, 2) : formatCheckReport(report));
  return report.ok ? 0 : 1;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      'allow-private': { type: 'boolean', default: false },
      token: { type: 'string' },
      text: { type: 'string' },
      data: { type: 'string' },
      'wait-text': { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
}

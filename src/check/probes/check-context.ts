/**
 * Shared state of one `concord check` run: the recorder, what the card promised, the interfaces,
 * one raw probe and one public client (src/client) per interface, and what each interface's
 * first task turned out to be. Raw calls are judged under rule 11 (JSON-RPC envelope) and every
 * error received, raw or through the client, under rules 47 / 48 (error envelopes).
 */
import { A2AClient, A2AClientError, A2ALocalError, bearer } from '../../client/index.js';
import type { AgentCard, Message, Part, Task } from '../../protocol/index.js';
import { CheckRecorder, type Evidence } from '../check-report.js';
import { judgeJsonRpcEnvelope } from './envelope-checks.js';
import { isA2AReason, judgeErrorEnvelope } from './error-checks.js';
import type { CardPromises, ProbeTarget } from './probe-targets.js';
import type { ReadControl } from './raw-http.js';
import { WireProbe, type Exchange, type ProbeSettings, type Reading, type WireError } from './wire-probe.js';

/** Settings of a run, defaults applied. */
export interface RunSettings {
  /**
   * The part the check's messages carry to create tasks: a text part (`--text`), or a data part
   * (`--data`) for agents whose input modes take no text.
   */
  message: Part;
  /** A text that keeps a task working until it is canceled (enables rules 20, 34, 36). */
  waitText?: string;
  timeoutMs: number;
}

/** What one interface's first send produced. */
export interface TargetFacts {
  /** The task the first send created (in its final state), when the agent answered with a task. */
  task?: Task;
  /** The direct reply, when the agent answered with a message. */
  message?: Message;
  /** Outcome class per probe (`ok`, `error -32001`, `other`), compared across bindings by rule 8. */
  outcomes: Map<string, string>;
  /** Whether each core operation worked (rules 7, 9, 10). */
  core: Map<string, boolean>;
  /** The first core failure, shown by rules 4, 5, 9 and 10. */
  coreEvidence?: Evidence;
}

/** The result of a call through the public client. */
export type ClientOutcome<T> =
  { ok: true; value: T; sent: string } | { ok: false; sent: string; received: string; error?: WireError };

/**
 * An error as rule 8 compares it across bindings: an A2A error by its code; an error an extension
 * defines (its own ErrorInfo reason, e.g. AAP's SCHEMA_VALIDATION_FAILED) by that reason, which
 * both bindings carry, while only JSON-RPC has a code for it (A2A 1.0 §9.5, §11.6).
 */
function errorClass(error: WireError): string {
  const own = error.reason !== undefined && !isA2AReason(error.reason);
  return `error ${own ? error.reason : (error.code ?? error.reason ?? error.httpStatus)}`;
}

/** One run's state. */
export class CheckContext {
  private readonly probes = new Map<ProbeTarget, WireProbe>();
  private readonly clients = new Map<ProbeTarget, { client: A2AClient; lastSent: string }>();
  private readonly factsByTarget = new Map<ProbeTarget, TargetFacts>();

  constructor(
    readonly run: RunSettings,
    readonly settings: ProbeSettings,
    readonly promises: CardPromises,
    readonly targets: ProbeTarget[],
    /** The canonical card the clients are built on. */
    readonly card: AgentCard,
    readonly recorder: CheckRecorder = new CheckRecorder(),
  ) {}

  /** The raw probe of an interface. */
  probe(target: ProbeTarget): WireProbe {
    let probe = this.probes.get(target);
    if (probe === undefined) {
      probe = new WireProbe(target, this.settings);
      this.probes.set(target, probe);
    }
    return probe;
  }

  /** Per-interface facts. */
  facts(target: ProbeTarget): TargetFacts {
    let facts = this.factsByTarget.get(target);
    if (facts === undefined) {
      facts = { outcomes: new Map(), core: new Map() };
      this.factsByTarget.set(target, facts);
    }
    return facts;
  }

  /** Records a probe's outcome class for rule 8. */
  outcome(target: ProbeTarget, probe: string, reading: Reading | ClientOutcome<unknown>): void {
    const cls =
      'kind' in reading
        ? reading.kind === 'result'
          ? 'ok'
          : reading.kind === 'error'
            ? errorClass(reading.error)
            : 'other'
        : reading.ok
          ? 'ok'
          : reading.error === undefined
            ? 'other'
            : errorClass(reading.error);
    this.facts(target).outcomes.set(probe, cls);
  }

  /**
   * Sends a raw request on `target`. JSON-RPC answers are judged under rule 11 against `id`
   * (pass `undefined` for streams, whose events are judged one by one); errors under 47 / 48.
   */
  async call(
    target: ProbeTarget,
    request: Parameters<WireProbe['exchange']>[0],
    id?: number | string | null,
    onText?: (chunk: string, control: ReadControl) => void,
  ): Promise<{ exchange: Exchange; reading: Reading }> {
    const probe = this.probe(target);
    const exchange = await probe.exchange(request, onText);
    const reading = probe.read(exchange);
    if (target.binding === 'JSONRPC' && id !== undefined && exchange.answer !== undefined)
      judgeJsonRpcEnvelope(this.recorder, target, exchange, id);
    if (reading.kind === 'error') {
      judgeErrorEnvelope(this.recorder, target, reading.error, () => ({
        where: target.label,
        expected: '',
        ...WireProbe.evidence(exchange),
      }));
    }
    return { exchange, reading };
  }

  private clientFor(target: ProbeTarget): { client: A2AClient; lastSent: string } {
    let entry = this.clients.get(target);
    if (entry === undefined) {
      const holder = { lastSent: '' } as { client: A2AClient; lastSent: string };
      const transport = {
        url: target.url,
        protocolBinding: target.binding,
        protocolVersion: target.version,
        ...(target.tenant === undefined ? {} : { tenant: target.tenant }),
      };
      holder.client = new A2AClient({
        card: this.card,
        transport,
        allowPrivateNetworks: this.settings.http.allowPrivateNetworks ?? false,
        ...(this.settings.http.allowedHosts === undefined
          ? {}
          : { allowedHosts: this.settings.http.allowedHosts }),
        ...(this.settings.token === undefined ? {} : { auth: bearer(this.settings.token) }),
        timeoutMs: this.run.timeoutMs,
        // The check judges each answer as given: no retries, no silent stream resumption, and
        // no liberal reading (decision 0136): an off-spec answer is a finding, not a warning.
        reading: 'strict',
        retry: { retries: 0 },
        resume: { enabled: false },
        interceptors: [
          {
            before: (call) => {
              holder.lastSent = `${call.method} ${call.url.href}${call.body === undefined ? '' : ` ${call.body.length > 400 ? `${call.body.slice(0, 400)}...` : call.body}`}`;
            },
          },
        ],
      });
      entry = holder;
      this.clients.set(target, entry);
    }
    return entry;
  }

  /** Runs `fn` with the public client bound to `target`; errors become outcomes, never throws. */
  async viaClient<T>(target: ProbeTarget, fn: (client: A2AClient) => Promise<T>): Promise<ClientOutcome<T>> {
    const entry = this.clientFor(target);
    entry.lastSent = '';
    try {
      const value = await fn(entry.client);
      return { ok: true, value, sent: entry.lastSent };
    } catch (error) {
      const sent = entry.lastSent;
      if (error instanceof A2AClientError) {
        const wire: WireError = { httpStatus: error.httpStatus, body: error.body };
        if (error.code !== 0) wire.code = error.code;
        if (error.reason !== undefined) wire.reason = error.reason;
        const received = `HTTP ${error.httpStatus} ${JSON.stringify(error.body)}`;
        judgeErrorEnvelope(this.recorder, target, wire, () => ({
          where: target.label,
          expected: '',
          sent,
          received,
        }));
        return { ok: false, sent, received, error: wire };
      }
      const received =
        error instanceof A2ALocalError
          ? `${error.kind}: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error);
      return { ok: false, sent, received };
    }
  }

  /** Evidence of a client outcome. */
  static clientEvidence(target: ProbeTarget, outcome: ClientOutcome<unknown>, expected: string): Evidence {
    return {
      where: target.label,
      expected,
      sent: outcome.sent,
      received: outcome.ok ? `a result: ${JSON.stringify(outcome.value)?.slice(0, 600)}` : outcome.received,
    };
  }

  /** Closes every client. */
  close(): void {
    for (const { client } of this.clients.values()) client.close();
  }
}

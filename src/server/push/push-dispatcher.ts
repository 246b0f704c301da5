/**
 * Delivers the push outbox (A2A 1.0 §4.3.3, §13.2: at least one attempt per webhook, retries with
 * exponential backoff). The store wakes the dispatcher after every commit that queued deliveries;
 * an idle timer also polls, for entries written by another process or due after a backoff.
 *
 * One claimed entry is the events of one commit for one config. Its deliveries are POSTed in order;
 * the first failure stops the entry and reschedules it from the first event not delivered. Tries
 * are counted per delivery (decision 0145): the entry's count is that of the event it owes next,
 * and an event delivered hands the next one a count (and a backoff) of its own. A failed try `n`
 * waits `initialDelayMs · 2^(n-1)` capped at `maxDelayMs`, scaled by a random factor in [0.5, 1]
 * so receivers coming back are not hit by every sender at once. An event that fails `maxAttempts`
 * tries is given up: alone when the entry owes events after it (they keep their own tries), else
 * with the entry; an entry that can never succeed (its target refused by the SSRF guard, its
 * secrets no longer opening, or a 410 Gone) is given up at once. Entries of one config wait for
 * each other (PushStore), so a receiver gets a config's events in order
 * (docs/decisions/0087-push-outbox.md).
 */
import type { PushConfigRecord, PushOutboxEntry, PushSettlement, PushStore } from '../../store/index.js';
import type { PushSigner } from './push-signer.js';
import { SecretOpenError, type PushSecrets, type SecretBox } from './secret-box.js';
import type { WebhookGuard } from './webhook-guard.js';
import { deliveriesOf, nextOwedSeq } from './webhook-payload.js';
import { postWebhook } from './webhook-post.js';
import {
  ATTR,
  endSpan,
  extractContext,
  injectContext,
  instruments,
  SPAN,
  SpanKind,
  startSpan,
  withSpan,
  type Context,
  type Span,
} from '../../telemetry/index.js';

/** Retry settings (PushOptions `retry`). */
export interface RetryPolicy {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/** What the dispatcher works with. */
export interface DispatcherDeps {
  store: PushStore;
  guard: WebhookGuard;
  box: SecretBox;
  signer: PushSigner;
  retry: RetryPolicy;
  timeoutMs: number;
  concurrency: number;
  pollIntervalMs: number;
  leaseMs: number;
  onError: (error: unknown, where: string) => void;
}

/** A delivery that was given up on; reported through `onError`. */
export class PushDeadLetterError extends Error {
  constructor(
    readonly taskId: string,
    readonly configId: string,
    readonly reason: string,
  ) {
    super(`push notifications of task ${taskId} to config ${configId} were given up: ${reason}`);
    this.name = 'PushDeadLetterError';
  }
}

/** Why an attempt stopped: retry later, or never; `untried` when the next event was not sent at all. */
class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly untried = false,
    /** The SSRF guard refused the target: no request was made (`refused` deliveries). */
    readonly refused = false,
  ) {
    super(message);
    // What the delivery span's `error.type` says (decision 0157).
    this.name = refused ? 'PushTargetRefusedError' : 'PushDeliveryError';
  }
}

/** `concord.push.outcome` of a settlement (the `concord.push.deliveries` counter, decision 0157). */
function outcomeOf(settlement: PushSettlement, refused: boolean): string {
  if (settlement.outcome === 'delivered' || settlement.outcome === 'retry') return settlement.outcome;
  return refused ? 'refused' : 'dead-letter';
}

/**
 * The parent of an entry's delivery spans: the operation whose commit queued it, from the trace
 * context stored with the outbox entry (decision 0157); the root when none was stored.
 */
function parentOf(entry: PushOutboxEntry): Context | undefined {
  const stored = entry.traceContext;
  return stored === undefined ? undefined : extractContext((name) => stored[name]);
}

/** A `SendPushNotification` CLIENT span for one POST (or one refused attempt) of `entry`. */
function deliverySpan(entry: PushOutboxEntry, parent: Context | undefined, url: URL): Span {
  const span = startSpan(SPAN.push, SpanKind.CLIENT, parent);
  if (span.isRecording()) {
    span.setAttributes({
      [ATTR.taskId]: entry.taskId,
      [ATTR.pushAttempt]: entry.attempts,
      // Never the query or the userinfo: either may carry a credential.
      [ATTR.urlFull]: `${url.origin}${url.pathname}`,
    });
  }
  return span;
}

/** Runs deliveries; see the file comment. */
export class PushDispatcher {
  private issuer: (() => string) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private draining = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  /** Counts `schedule` calls, so a plan made from stale facts never replaces a newer wake-up. */
  private scheduled = 0;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: DispatcherDeps) {
    this.unsubscribe = deps.store.onOutbox(() => this.nudge());
  }

  /** Starts delivering once the agent's base URL (the JWT issuer) is known. */
  start(issuer: () => string): void {
    if (this.closed) return;
    const first = this.issuer === undefined;
    this.issuer = issuer;
    if (first) this.nudge();
  }

  /** Asks for a delivery round soon (after a commit queued something). */
  nudge(): void {
    if (this.closed || this.issuer === undefined) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops claiming and waits for the deliveries in flight (their results are recorded). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.timer !== undefined) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.scheduled++;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, delayMs);
    // Pending deliveries never keep a process alive on their own: close() is the orderly stop.
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    if (this.draining || this.closed) return;
    this.draining = true;
    const { store, concurrency, leaseMs } = this.deps;
    try {
      do {
        this.again = false;
        const room = concurrency - this.inFlight.size;
        if (room <= 0) break;
        const claimed = await store.claimDue(Date.now(), room, leaseMs);
        for (const entry of claimed) this.track(this.deliver(entry, Date.now() + leaseMs));
        if (claimed.length === room) this.again = true;
      } while (this.again && !this.closed);
    } catch (error) {
      this.deps.onError(error, 'push outbox');
    } finally {
      this.draining = false;
    }
    await this.planNext();
  }

  private async planNext(): Promise<void> {
    if (this.closed) return;
    const before = this.scheduled;
    let delay = this.deps.pollIntervalMs;
    try {
      const next = await this.deps.store.nextDueAt();
      if (next !== undefined) delay = Math.min(delay, Math.max(0, next - Date.now()));
    } catch (error) {
      this.deps.onError(error, 'push outbox');
    }
    // A nudge meanwhile already planned the next round.
    if (this.scheduled !== before) return;
    // Entries due now but not claimed wait for a delivery in flight to finish (it nudges).
    if (delay === 0 && this.inFlight.size >= this.deps.concurrency) return;
    this.schedule(Math.max(delay, 5));
  }

  private track(work: Promise<void>): void {
    const done = work.catch((error: unknown) => this.deps.onError(error, 'push delivery'));
    this.inFlight.add(done);
    void done.finally(() => {
      this.inFlight.delete(done);
      this.nudge();
    });
  }

  /** One attempt at one entry, then its settlement. `deadline` is where its lease ends. */
  private async deliver(entry: PushOutboxEntry, deadline: number): Promise<void> {
    const { store } = this.deps;
    const config = await store.getConfig(entry.taskId, entry.configId);
    if (config === undefined) {
      // Deleted meanwhile: nothing follows a delete (A2A 1.0 §3.1.10).
      await store.settle(entry.id, { outcome: 'delivered' });
      return;
    }
    let delivered = entry.deliveredSeq;
    let settlement: PushSettlement;
    let refused = false;
    try {
      delivered = await this.attempt(entry, config, deadline, (seq) => (delivered = seq));
      settlement = { outcome: 'delivered' };
    } catch (error) {
      const failure =
        error instanceof AttemptFailed ? error : new AttemptFailed((error as Error).message, false);
      refused = failure.refused;
      settlement = this.afterFailure(entry, config, delivered, failure);
    }
    await store.settle(entry.id, settlement);
    const meters = instruments();
    if (meters.on) meters.pushDeliveries.add(1, { [ATTR.pushOutcome]: outcomeOf(settlement, refused) });
    if (settlement.outcome === 'dead' || settlement.outcome === 'skip') {
      this.deps.onError(
        new PushDeadLetterError(entry.taskId, entry.configId, settlement.reason),
        'push delivery',
      );
    }
  }

  private afterFailure(
    entry: PushOutboxEntry,
    config: PushConfigRecord,
    delivered: number,
    failure: AttemptFailed,
  ): PushSettlement {
    const { retry } = this.deps;
    const { url } = config;
    const deliveredSeq = delivered;
    const progressed = delivered > entry.deliveredSeq;
    const error = failure.message;
    // The lease ran out after some events went out, before the next was sent: that one was not
    // tried, so it starts at no tries and does not wait.
    if (failure.untried && progressed)
      return { outcome: 'retry', deliveredSeq, attempts: 0, nextAttemptAt: Date.now(), error };
    // The claim counted a try of the event owed when it began; once an event went out, the one
    // that failed has had this single try (decision 0145).
    const attempts = progressed ? 1 : entry.attempts;
    if (failure.permanent) return { outcome: 'dead', deliveredSeq, attempts, reason: error, url };
    if (attempts < retry.maxAttempts) {
      const nextAttemptAt = Date.now() + backoffMs(retry, attempts);
      return { outcome: 'retry', deliveredSeq, attempts, nextAttemptAt, error };
    }
    const reason = `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error}`;
    const seq = nextOwedSeq(entry, delivered, config.protocolVersion);
    // The last event the entry owes: the entry is the dead letter. Otherwise this event alone is;
    // the ones after it have tries of their own, and go on in order, at once.
    if (seq >= entry.lastSeq) return { outcome: 'dead', deliveredSeq, attempts, reason, url };
    return { outcome: 'skip', seq, attempts, nextAttemptAt: Date.now(), reason, url };
  }

  /** POSTs what the entry still owes; returns the last delivered sequence number. */
  private async attempt(
    entry: PushOutboxEntry,
    config: PushConfigRecord,
    deadline: number,
    progress: (seq: number) => void,
  ): Promise<number> {
    const { guard, signer, timeoutMs } = this.deps;
    const secrets = this.openSecrets(config);
    const url = new URL(config.url);
    const parent = parentOf(entry);
    const verdict = await guard.inspect(url);
    if (!verdict.ok) {
      const refusal = new AttemptFailed(
        guard.describeRefusal(verdict),
        verdict.problem !== 'unresolvable',
        false,
        true,
      );
      endSpan(deliverySpan(entry, parent, url), refusal, SpanKind.CLIENT);
      throw refusal;
    }
    const issuer = this.issuer!();
    let delivered = entry.deliveredSeq;
    for (const delivery of deliveriesOf(entry, config.protocolVersion)) {
      const remaining = deadline - Date.now() - 1000;
      if (remaining <= 0)
        throw new AttemptFailed('the attempt ran out of time before every event went out', false, true);
      const jwt = await signer.sign({
        issuer,
        audience: config.url,
        taskId: entry.taskId,
        eventId: delivery.eventId,
        body: delivery.body,
        jwksUrl: new URL('.well-known/jwks.json', issuer).href,
      });
      const headers = webhookHeaders(
        entry.taskId,
        delivery.eventId,
        delivery.contentType,
        config,
        secrets,
        jwt,
      );
      const span = deliverySpan(entry, parent, url);
      // The receiver's work joins the trace below this POST (W3C trace context headers).
      injectContext(withSpan(parent, span), headers);
      let status: number;
      try {
        status = await postWebhook(
          url,
          verdict.address,
          headers,
          delivery.body,
          Math.min(timeoutMs, remaining),
        );
      } catch (error) {
        const failure = new AttemptFailed(`${url.host}: ${(error as Error).message}`, false);
        endSpan(span, failure, SpanKind.CLIENT);
        throw failure;
      }
      if (span.isRecording()) span.setAttribute(ATTR.httpStatus, status);
      let failure: AttemptFailed | undefined;
      if (status === 410) failure = new AttemptFailed('the receiver answered 410 Gone', true);
      else if (status < 200 || status > 299)
        failure = new AttemptFailed(`the receiver answered HTTP ${status}`, false);
      endSpan(span, failure, SpanKind.CLIENT);
      if (failure !== undefined) throw failure;
      delivered = delivery.eventId;
      progress(delivered);
    }
    return delivered;
  }

  private openSecrets(config: PushConfigRecord): PushSecrets {
    if (config.sealedSecrets === undefined) return {};
    try {
      return this.deps.box.open(config.sealedSecrets, config.taskId, config.id);
    } catch (error) {
      if (error instanceof SecretOpenError) throw new AttemptFailed(error.message, true);
      throw error;
    }
  }
}

/** The delay after an event's try `attempts` failed: exponential, capped, with jitter in [½, 1]. */
export function backoffMs(policy: RetryPolicy, attempts: number): number {
  const exponential = policy.initialDelayMs * 2 ** Math.max(0, attempts - 1);
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped * (0.5 + Math.random() / 2));
}

/**
 * The headers of one delivery (decision 0089): `Authorization` from the
 * config's authentication (`<scheme> <credentials>`; a Bearer scheme without credentials gets the
 * delivery's signed JWT, the A2A guide's JWT + JWKS pattern), the token in `X-A2A-Notification-Token`
 * (and `A2A-Notification-Token`, the spelling a2a-go reads), the signature, and the event's ids.
 */
export function webhookHeaders(
  taskId: string,
  eventId: number,
  contentType: string,
  config: PushConfigRecord,
  secrets: PushSecrets,
  jwt: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'Concord-Push/1',
    'x-a2a-task-id': taskId,
    'x-a2a-event-id': String(eventId),
    'x-a2a-signature': jwt,
  };
  if (config.authScheme !== undefined) {
    headers.authorization =
      secrets.credentials !== undefined
        ? `${config.authScheme} ${secrets.credentials}`
        : `${config.authScheme} ${jwt}`;
  }
  if (secrets.token !== undefined) {
    headers['x-a2a-notification-token'] = secrets.token;
    headers['a2a-notification-token'] = secrets.token;
  }
  return headers;
}

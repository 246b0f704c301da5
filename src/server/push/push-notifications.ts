/**
 * Push notifications of one agent server, assembled from `PushOptions`: the config CRUD the
 * request handler calls, the dispatcher that delivers the store's outbox, the signer whose JWKS
 * the server publishes. The card says `pushNotifications: true` exactly when a server has one
 * (A2A 1.0 §3.3.4: capability flags match behaviour).
 */
import type { SigningKey } from '../../card/index.js';
import type { HostResolver } from '../../net/index.js';
import type { PushStore } from '../../store/index.js';
import { PushConfigs } from './push-configs.js';
import { PushDispatcher, type RetryPolicy } from './push-dispatcher.js';
import { PushSigner } from './push-signer.js';
import { SecretBox } from './secret-box.js';
import { WebhookGuard } from './webhook-guard.js';

/** Push-notification settings of `createA2AServer` (`loadPushKeys` makes or keeps the keys). */
export interface PushOptions {
  /** The 32-byte AES-256-GCM key that seals configs' tokens and credentials at rest. */
  secretKey: Uint8Array;
  /** Signs every delivery (`X-A2A-Signature`); its public key is served at `.well-known/jwks.json`. */
  signingKey: SigningKey;
  /** Host names, IP literals or CIDR blocks webhooks may reach although private (default none). */
  allow?: readonly string[] | undefined;
  /**
   * Tries per delivery, each event counting its own (default 10), and the backoff between them (1 s
   * doubling, at most 5 min), started afresh for each event (decision 0145).
   */
  retry?: Partial<RetryPolicy> | undefined;
  /** Timeout of one webhook POST, in ms (default 10 000; A2A 1.0 §13.2 recommends 10-30 s). */
  timeoutMs?: number | undefined;
  /** Deliveries in flight at once (default 8). */
  concurrency?: number | undefined;
  /** How often the outbox is looked at when nothing wakes the dispatcher, in ms (default 5000). */
  pollIntervalMs?: number | undefined;
  /**
   * How long a claimed delivery is reserved for this process, in ms (default twice the timeout
   * plus a second). An attempt never outlives its lease; after a crash, what was in flight is due
   * again once its lease is over.
   */
  leaseMs?: number | undefined;
  /** How webhook host names are resolved (default: the system resolver). */
  resolve?: HostResolver | undefined;
}

/** Defaults of `PushOptions.retry`. */
export const DEFAULT_PUSH_RETRY: RetryPolicy = { maxAttempts: 10, initialDelayMs: 1000, maxDelayMs: 300_000 };

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`push.${name} must be a positive number, got ${value}`);
  return value;
}

/** The push machinery of one server; see the file comment. */
export class PushNotifications {
  readonly configs: PushConfigs;
  readonly signer: PushSigner;
  readonly guard: WebhookGuard;
  private readonly dispatcher: PushDispatcher;

  /** Throws a TypeError naming a bad option (an allow entry, a key, a number). */
  constructor(store: PushStore, options: PushOptions, onError: (error: unknown, where: string) => void) {
    const box = new SecretBox(options.secretKey);
    this.guard = new WebhookGuard({ allow: options.allow, resolve: options.resolve });
    this.signer = new PushSigner(options.signingKey);
    this.configs = new PushConfigs(store, this.guard, box);
    const retry = options.retry ?? {};
    const timeoutMs = positive(options.timeoutMs, 10_000, 'timeoutMs');
    const maxAttempts = positive(retry.maxAttempts, DEFAULT_PUSH_RETRY.maxAttempts, 'retry.maxAttempts');
    this.dispatcher = new PushDispatcher({
      store,
      guard: this.guard,
      box,
      signer: this.signer,
      retry: {
        maxAttempts: Math.floor(maxAttempts),
        initialDelayMs: positive(
          retry.initialDelayMs,
          DEFAULT_PUSH_RETRY.initialDelayMs,
          'retry.initialDelayMs',
        ),
        maxDelayMs: positive(retry.maxDelayMs, DEFAULT_PUSH_RETRY.maxDelayMs, 'retry.maxDelayMs'),
      },
      timeoutMs,
      concurrency: Math.floor(positive(options.concurrency, 8, 'concurrency')),
      pollIntervalMs: positive(options.pollIntervalMs, 5000, 'pollIntervalMs'),
      leaseMs: positive(options.leaseMs, 2 * timeoutMs + 1000, 'leaseMs'),
      onError,
    });
  }

  /** Starts delivering; `baseUrl` returns the agent's base URL (the issuer of every signature). */
  start(baseUrl: () => string): void {
    this.dispatcher.start(baseUrl);
  }

  /** Stops delivering and waits for the deliveries in flight. */
  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

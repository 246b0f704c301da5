/**
 * The client side of the AUMP binding as a client interceptor (client/auth/interceptors.ts): every send
 * whose message carries the AUMP extension gets it activated in the request header (A2A 1.0 §3.2.6;
 * seed "Messages activate the extension with the A2A-Extensions header"), and, when asked, the
 * caller learns whether the agent activated it in turn (the server echoes activated extensions,
 * A2A 1.0 §4.6.1). Calls that carry no AUMP reference are left alone, so one client can send
 * mandated and plain messages.
 */
import type { ClientInterceptor, OutgoingCall } from '../../client/index.js';
import { AUMP_A2A_EXTENSION_URI } from './constants.js';

/** What `onResponse` hears about a mandated send. */
export interface AumpResponseInfo {
  /** The A2A messageId of the message sent, when it could be read from the request. */
  messageId: string | undefined;
  /** Whether the agent echoed the AUMP activation: it read the reference as AUMP. */
  activated: boolean;
  status: number | undefined;
}

/** Options of `aumpInterceptor`. */
export interface AumpInterceptorOptions {
  /** Called after each mandated send that got an answer. */
  onResponse?(info: AumpResponseInfo): void;
}

const SENDS = new Set(['sendMessage', 'sendStreamingMessage']);

function carriesAump(call: OutgoingCall): boolean {
  return SENDS.has(call.purpose) && call.body !== undefined && call.body.includes(AUMP_A2A_EXTENSION_URI);
}

function listWith(existing: string | undefined): string {
  const uris = (existing ?? '').split(',').map((uri) => uri.trim());
  return [...new Set([...uris, AUMP_A2A_EXTENSION_URI].filter((uri) => uri !== ''))].join(', ');
}

function messageIdOf(body: string | undefined): string | undefined {
  try {
    const parsed = JSON.parse(body ?? '') as { params?: { message?: unknown }; message?: unknown };
    const message = (parsed.params?.message ?? parsed.message) as { messageId?: unknown } | undefined;
    return typeof message?.messageId === 'string' ? message.messageId : undefined;
  } catch {
    return undefined;
  }
}

/** The interceptor; see the file comment. Pass it in the client's `interceptors`. */
export function aumpInterceptor(options: AumpInterceptorOptions = {}): ClientInterceptor {
  return {
    before(call) {
      if (!carriesAump(call)) return;
      // Both spellings: 1.0 reads A2A-Extensions, 0.3 servers X-A2A-Extensions (decision 0136).
      call.headers['a2a-extensions'] = listWith(call.headers['a2a-extensions']);
      call.headers['x-a2a-extensions'] = listWith(call.headers['x-a2a-extensions']);
    },
    after(call, outcome) {
      if (options.onResponse === undefined || !carriesAump(call) || outcome.status === undefined) return;
      const echoed = `${outcome.headers?.['a2a-extensions'] ?? ''},${outcome.headers?.['x-a2a-extensions'] ?? ''}`;
      options.onResponse({
        messageId: messageIdOf(call.body),
        activated: echoed.split(',').some((uri) => uri.trim() === AUMP_A2A_EXTENSION_URI),
        status: outcome.status,
      });
    },
  };
}

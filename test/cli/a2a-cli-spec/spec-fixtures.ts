/**
 * Agents the a2a-cli specification tests call through the real `concord` binary: a Concord agent
 * whose words pick an outcome (fail, reject, ask, auth, slow, wait, reply, stream, or an echo of
 * the parts it was sent), and a fake JSON-RPC agent whose answers a test writes by hand (states
 * no Concord agent produces, and every request recorded).
 */
import type { Part } from '../../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../../helpers/echo-server.js';
import { startJsonServer, type JsonServer, type Recorded } from '../../client/helpers/json-server.js';

/** The card of the spec agent. */
export const SPEC_CARD = {
  name: 'Spec Agent',
  description: 'Answers each word with the outcome it names.',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain', 'application/json', 'application/octet-stream'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [{ id: 'spec', name: 'Spec', description: 'Outcomes on request.', tags: ['test'] }],
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('canceled'));
      },
      { once: true },
    );
  });
}

/** Starts the spec agent (options pass to the server: cards, authentication, gRPC). */
export function startSpecAgent(options: Parameters<typeof startEcho>[0] = {}): Promise<EchoServer> {
  return startEcho({
    agentCard: SPEC_CARD as never,
    executor: {
      async execute(context, updater) {
        const parts = context.message.parts;
        const text = parts
          .map((p: Part) => p.text ?? '')
          .join(' ')
          .trim();
        if (context.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
          updater.addArtifact([{ text: `answer: ${text}` }], { name: 'answer' });
          updater.complete();
          return;
        }
        const slow = /^slow (\d+)$/.exec(text);
        const stream = /^stream (\d+)$/.exec(text);
        if (text === 'fail') updater.fail('it broke');
        else if (text === 'reject') updater.reject('not for me');
        else if (text === 'ask') updater.requireInput('Which colour?');
        else if (text === 'auth') updater.requireAuth('Sign in first');
        else if (text === 'reply') updater.reply('a direct reply');
        else if (slow !== null) {
          updater.startWork('working slowly');
          try {
            await sleep(Number(slow[1]), context.signal);
          } catch {
            return;
          }
          updater.addArtifact([{ text: 'done slowly' }], { name: 'result' });
          updater.complete();
        } else if (stream !== null) {
          const n = Number(stream[1]);
          updater.startWork(`Streaming ${n} chunks`);
          let id: string | undefined;
          for (let i = 1; i <= n; i++) {
            try {
              await sleep(50, context.signal);
            } catch {
              return;
            }
            id = updater.addArtifact([{ text: `chunk ${i}\n` }], {
              name: 'stream',
              ...(id === undefined ? {} : { artifactId: id, append: true }),
              lastChunk: i === n,
            });
          }
          updater.complete();
        } else if (text === 'wait') {
          updater.startWork('waiting until canceled');
          await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
        } else {
          // An echo of every part, in order, as one artifact.
          updater.addArtifact(parts, { name: 'echo' });
          updater.complete();
        }
      },
    },
    ...options,
  });
}

/** A JSON-RPC 1.0 request the fake agent received. */
export interface RpcCall {
  method: string;
  params: Record<string, unknown>;
  headers: Recorded['headers'];
}

/** A fake agent: a card at the well-known path and a JSON-RPC endpoint answering by method. */
export interface FakeAgent extends JsonServer {
  calls: RpcCall[];
  cardUrl: string;
}

/**
 * Starts a fake JSON-RPC agent. `answer` returns the result of each call (or `{ error }`);
 * `card` may change the card (its interfaces point at this server's `/rpc`).
 */
export async function startFakeAgent(
  answer: (call: RpcCall, index: number) => unknown,
  card: (url: string) => Record<string, unknown> = (url) => ({
    ...SPEC_CARD,
    supportedInterfaces: [{ url: `${url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  }),
): Promise<FakeAgent> {
  const calls: RpcCall[] = [];
  const holder: { url: string } = { url: '' };
  const server = await startJsonServer({
    '/.well-known/agent-card.json': () => ({ body: card(holder.url) }),
    '/rpc': (request) => {
      const body = JSON.parse(request.body) as {
        id: unknown;
        method: string;
        params: Record<string, unknown>;
      };
      const call = { method: body.method, params: body.params, headers: request.headers };
      calls.push(call);
      const result = answer(call, calls.length - 1);
      if (typeof result === 'object' && result !== null && 'error' in result)
        return { body: { jsonrpc: '2.0', id: body.id, error: (result as { error: unknown }).error } };
      return { body: { jsonrpc: '2.0', id: body.id, result } };
    },
  });
  holder.url = server.url;
  return Object.assign(server, { calls, cardUrl: `${server.url}.well-known/agent-card.json` });
}

/** A task in the wire's 1.0 JSON. */
export function wireTask(
  id: string,
  state: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { id, contextId: `ctx-${id}`, status: { state }, ...extra };
}

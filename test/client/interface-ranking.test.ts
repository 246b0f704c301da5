/**
 * Default interface choice (A2A 1.0 §8.3.2; decision 0019): 1.0 before 0.3 whatever the card's
 * order, then the card's order (the agent's preference) unless the caller ranks bindings; a card
 * offering nothing the client speaks is NO_COMPATIBLE_INTERFACE naming what it offers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, A2ALocalError, CardCache, selectInterface } from '../../src/client/internal.js';
import type { AgentCard, AgentInterface } from '../../src/protocol/index.js';
import { startJsonServer } from './helpers/json-server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

function cardWith(interfaces: AgentInterface[]): AgentCard {
  return {
    name: 'Ranked',
    description: 'Interfaces in a chosen order',
    version: '1',
    supportedInterfaces: interfaces,
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'A skill', tags: ['t'] }],
  };
}

const rest03 = { url: 'https://a.example/v03/', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' };
const rpc03 = { url: 'https://a.example/rpc03', protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' };
const rest10 = { url: 'https://a.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' };
const rpc10 = { url: 'https://a.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0.2' };
const grpc10 = { url: 'a.example:443', protocolBinding: 'GRPC', protocolVersion: '1.0' };
// A custom binding (A2A 1.0 §5.8: named by a URI) the client does not speak.
const custom10 = {
  url: 'https://a.example/custom',
  protocolBinding: 'https://bindings.example/ws',
  protocolVersion: '1.0',
};

describe('default interface ranking', () => {
  it('prefers 1.0 over 0.3 even when the card lists 0.3 first, then keeps the card order', () => {
    const client = new A2AClient({ card: cardWith([rpc03, rest03, rest10, rpc10]) });
    expect(client.transport).toEqual({
      url: rest10.url,
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
    });
    const swapped = new A2AClient({ card: cardWith([rpc03, rpc10, rest10]) });
    expect(swapped.transport.url).toBe(rpc10.url);
  });

  it('skips bindings it does not speak, and ranks by the caller’s preference when given', () => {
    expect(selectInterface(cardWith([custom10, rest03, rpc10])).url).toBe(rpc10.url);
    // gRPC is spoken (decision 0071): first in the card, it is chosen; a preference can skip it.
    expect(selectInterface(cardWith([grpc10, rpc10])).protocolBinding).toBe('GRPC');
    expect(selectInterface(cardWith([grpc10, rpc10]), { bindings: ['JSONRPC'] }).url).toBe(rpc10.url);
    const card = cardWith([rest10, rpc10, rpc03]);
    expect(selectInterface(card, { bindings: ['JSONRPC'] }).url).toBe(rpc10.url);
    expect(selectInterface(card, { versions: ['0.3'] }).url).toBe(rpc03.url);
    // Versions rank before bindings: a 0.3 JSON-RPC interface loses to a 1.0 REST one.
    expect(selectInterface(cardWith([rpc03, rest10]), { bindings: ['JSONRPC', 'HTTP+JSON'] }).url).toBe(
      rest10.url,
    );
  });

  it('refuses a card with no interface it can use, listing what the card offers', () => {
    const error = (() => {
      try {
        selectInterface(cardWith([custom10, { ...rpc10, protocolVersion: '2.0' }]));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(A2ALocalError);
    expect((error as A2ALocalError).kind).toBe('NO_COMPATIBLE_INTERFACE');
    expect((error as A2ALocalError).message).toContain(
      'https://bindings.example/ws 1.0 at https://a.example/custom',
    );
    expect((error as A2ALocalError).message).toContain('JSONRPC 2.0 at https://a.example/rpc');
  });

  it('connect() against a served card: NO_COMPATIBLE_INTERFACE when the preference excludes every interface', async () => {
    const server = await startJsonServer({
      '/.well-known/agent-card.json': { body: { ...cardWith([rest10]), supportedInterfaces: [rest10] } },
    });
    cleanup.push(() => server.close());
    const options = { allowPrivateNetworks: true, cardCache: new CardCache() };
    const chosen = await A2AClient.connect(server.url, options);
    expect(chosen.transport.url).toBe(rest10.url);
    const error = await A2AClient.connect(server.url, {
      ...options,
      prefer: { bindings: ['JSONRPC'] },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'NO_COMPATIBLE_INTERFACE' });
    expect((error as Error).message).toContain('HTTP+JSON 1.0 at https://a.example/rest');
  });
});

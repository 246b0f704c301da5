/** The SSRF guard: private, loopback and link-local targets are refused unless allowed. */
import { describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2ALocalError,
  blockedAddressReason,
  resolveAgentCard,
} from '../../src/client/internal.js';
import { startJsonServer } from './helpers/json-server.js';

async function refused(
  url: string,
  options: Parameters<typeof A2AClient.connect>[1] = {},
): Promise<A2ALocalError> {
  const error = await A2AClient.connect(url, { cardCache: false, retry: { retries: 0 }, ...options }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(A2ALocalError);
  return error as A2ALocalError;
}

describe('SSRF guard', () => {
  it.each([
    'http://127.0.0.1:9/',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:9/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://0.0.0.0/',
    'http://192.168.1.1/',
    'http://172.20.0.1/',
    'http://localhost:9/',
  ])('refuses %s', async (url) => {
    const error = await refused(url);
    expect(error.kind).toBe('SSRF_BLOCKED');
    expect(error.message).toMatch(/Refusing/);
  });

  it('refuses a hostname when any of its answers is private (checked before connecting)', async () => {
    const error = await refused('http://agent.example/', {
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    });
    expect(error.kind).toBe('SSRF_BLOCKED');
    expect(error.message).toContain('10.0.0.7');
  });

  it('refuses non-http schemes', async () => {
    const error = await refused('file:///etc/passwd.json');
    expect(error.kind).toBe('SSRF_BLOCKED');
  });

  it('allows a private target through allowedHosts or allowPrivateNetworks, and pins the checked address', async () => {
    const server = await startJsonServer({
      '/.well-known/agent-card.json': {
        body: {
          protocolVersion: '0.3.0',
          name: 'n',
          description: 'd',
          url: 'http://x/',
          version: '1',
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [],
        },
      },
    });
    try {
      const port = new URL(server.url).port;
      await expect(
        resolveAgentCard(server.url, { allowedHosts: ['127.0.0.1'], cache: false }),
      ).resolves.toMatchObject({ cardVersion: '0.3' });
      // A made-up name resolved by the caller's resolver to the checked address: the socket goes there.
      const viaName = await resolveAgentCard(`http://agent.internal:${port}/`, {
        allowPrivateNetworks: true,
        cache: false,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      expect(viaName.card.name).toBe('n');
      expect(server.requests.at(-1)?.headers.host).toBe(`agent.internal:${port}`);
    } finally {
      await server.close();
    }
  });

  it('classifies public addresses as public', () => {
    expect(blockedAddressReason('8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('2001:4860:4860::8888')).toBeUndefined();
    expect(blockedAddressReason('172.32.0.1')).toBeUndefined();
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('::ffff:7f00:1')).toMatch(/loopback/);
  });
});

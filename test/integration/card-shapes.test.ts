/**
 * Decision 0143, cards over real sockets. (5) The 0.3 HTTP+JSON extended card (`GET /v1/card`) is
 * the 0.3 proto's AgentCard, security schemes as the `SecurityScheme` oneof, as both SDK lines'
 * 0.3 REST clients read it; Concord's client reads that shape and the 0.3 JSON card's. (6) The
 * card SDK 1.3 serves (`JSON.stringify` of its ts-proto object: `{scheme:{$case, value}}`) is read
 * by Concord's client in its liberal mode, with a warning, and still refused in strict mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  bearer,
  CardCache,
  resolveAgentCard,
  type A2AReadWarning,
} from '../../src/client/internal.js';
import { v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { startSdkServer, SDK_TOKEN, type SdkServer } from '../interop/helpers/sdk-server.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
// @ts-expect-error -- plain JS fixture module without type declarations
import * as fixture from '../interop/fixtures/agent/agent.mjs';

let concord: EchoServer;
let sdk: SdkServer;

beforeAll(async () => {
  concord = await startEcho({
    agentCard: fixture.agentCard,
    extendedAgentCard: fixture.serverOptions.extendedAgentCard,
    authenticate: fixture.serverOptions.authenticate,
  });
  sdk = await startSdkServer({ full: true });
});
afterAll(async () => {
  await concord.close();
  await sdk.close();
});

describe('0.3 HTTP+JSON extended card (GET /v1/card)', () => {
  it('is served in the 0.3 proto shape: the scheme is the SecurityScheme oneof', async () => {
    const response = await fetch(`${concord.url}v1/card`, {
      headers: { authorization: `Bearer ${fixture.TOKEN}` },
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { name: string; securitySchemes: Record<string, unknown> };
    expect(json.name).toBe('Interop Echo (extended)');
    expect(json.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
  });

  it("is read by Concord's client on HTTP+JSON 0.3", async () => {
    const client = await A2AClient.connect(concord.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: ['HTTP+JSON'], versions: ['0.3'] },
      auth: bearer(fixture.TOKEN),
    });
    try {
      expect(client.transport.protocolVersion).toBe('0.3');
      const card = await client.getExtendedAgentCard();
      expect(card.name).toBe('Interop Echo (extended)');
      expect(card.securitySchemes?.bearer).toEqual({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
    } finally {
      client.close();
    }
  });

  it('the 0.3 REST reader also takes the 0.3 JSON card shape ({type:"http"})', async () => {
    const response = await fetch(`${concord.url}.well-known/agent-card.json`);
    const legacy = (await response.json()) as { securitySchemes: Record<string, { type?: string }> };
    expect(legacy.securitySchemes.bearer?.type).toBe('http');
    const card = v0_3RestCodec.decodeAgentCard(legacy, '');
    expect(card.securitySchemes?.bearer).toEqual({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
  });
});

describe("SDK 1.3's card with ts-proto oneofs", () => {
  it('is served so by the real SDK server', async () => {
    const response = await fetch(`${sdk.url}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    const json = (await response.json()) as { securitySchemes: Record<string, unknown> };
    expect(json.securitySchemes.bearer).toMatchObject({ scheme: { $case: 'httpAuthSecurityScheme' } });
  });

  it('is read liberally with a warning naming the scheme, and refused when reading strictly', async () => {
    const warnings: A2AReadWarning[] = [];
    const resolved = await resolveAgentCard(sdk.url, {
      allowPrivateNetworks: true,
      cache: false,
      onWarning: (w) => warnings.push(w),
    });
    expect(resolved.card.securitySchemes?.bearer).toEqual({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
    expect(warnings.map((w) => w.path)).toContain('/securitySchemes/bearer/scheme');
    await expect(
      resolveAgentCard(sdk.url, { allowPrivateNetworks: true, cache: false, reading: 'strict' }),
    ).rejects.toThrow(/securitySchemes\/bearer/);
  });

  it("lets Concord's client reach the SDK's extended card with the card's bearer scheme", async () => {
    const client = await A2AClient.connect(sdk.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: ['JSONRPC'], versions: ['1.0'] },
      auth: bearer(SDK_TOKEN),
    });
    try {
      expect((await client.getExtendedAgentCard()).name).toBe('SDK Echo (extended)');
    } finally {
      client.close();
    }
  });
});

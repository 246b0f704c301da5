/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read loosely in assertions */
// The flagship example as a user runs it: `concord serve examples/dealer` as a child process,
// over real sockets. Every valid AAP example request gets a schema-valid answer, the seed's seven
// curl calls work as written (host and token changed), the card and manifest validate against the
// AAP schemas, and the negative suite gets the right code, status and envelope for each refusal.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AAP_SKILLS, aapSchemas } from '../../src/extensions/aap/internal.js';
import { aapBody, NOW, post, ROOT, startDealer, token, type Dealer } from './dealer-process.js';

const EXAMPLES = join(ROOT, 'schemas/aap/v0.1/examples');
const example = (name: string): Record<string, any> => JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8'));
const schemas = aapSchemas();
const V1 = { 'a2a-version': '1.0' };

let dir: string;
let dealer: Dealer;
let bearer: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-dealer-'));
  dealer = await startDealer(dir);
  bearer = { authorization: `Bearer ${await token()}` };
}, 60_000);

afterAll(async () => {
  await dealer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Checks a success reply: one typed part whose payload validates against its skill's schema. */
function expectValidReply(json: Record<string, any>, requestId: string): Record<string, any> {
  const message = json.message;
  expect(message.role).toBe('ROLE_AGENT');
  expect(message.messageId).not.toBe(requestId);
  expect(message.parts).toHaveLength(1);
  const part = message.parts[0];
  const skill = AAP_SKILLS.find((s) => s.responseMediaType === part.mediaType);
  expect(skill, `media type ${part.mediaType}`).toBeDefined();
  expect(schemas.validate(skill!.responseSchema, part.data)).toEqual([]);
  return part.data;
}

describe('discovery', () => {
  it('serves a card and a contract manifest that validate against the AAP schemas', async () => {
    const card = (await (await fetch(`${dealer.url}.well-known/agent-card.json`)).json()) as Record<
      string,
      any
    >;
    expect(schemas.validate('agent-card.schema.json', card)).toEqual([]);
    const entry = card.capabilities.extensions.find((e: { uri: string }) =>
      e.uri.includes('a2a-automotive-retail/v0.1'),
    );
    expect(entry.params.required_skills).toEqual(AAP_SKILLS.map((s) => s.id));
    expect(entry.params.manifest_url).toBe(`${dealer.url}.well-known/auto-agent-contract.json`);
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(AAP_SKILLS.map((s) => s.id));
    expect(card.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('bearer');
    expect(
      card.skills.find((s: { id: string }) => s.id === 'lead.vehicle').securityRequirements,
    ).toBeDefined();
    expect(
      card.skills.find((s: { id: string }) => s.id === 'inventory.search').securityRequirements,
    ).toBeUndefined();

    const manifest = (await (await fetch(entry.params.manifest_url)).json()) as Record<string, any>;
    expect(schemas.validate('contract-manifest.schema.json', manifest)).toEqual([]);
    expect(manifest.auth_type).toBe('bearer');
    expect(manifest.a2a.endpoint).toBe(dealer.url.slice(0, -1)); // the card's interface URL (decision 0138)
    expect(manifest.dealer.name).toBe('Demo Toyota');
    const lead = manifest.a2a.skills.find((s: { id: string }) => s.id === 'lead.vehicle');
    expect(lead).toMatchObject({ anonymous_allowed: false, consent_required: true, adf_compatible: true });
  });

  it('validates every upstream example payload against its schema', () => {
    const payloads = readdirSync(EXAMPLES).filter(
      (n) => /^[a-z-]+\.example\.json$/.test(n) && n !== 'mcp-manifest.example.json',
    );
    expect(payloads.length).toBe(17);
    for (const name of payloads) {
      expect(schemas.validate(name.replace('.example.json', '.schema.json'), example(name)), name).toEqual(
        [],
      );
    }
  });
});

describe('valid example requests', () => {
  const requests = readdirSync(join(ROOT, 'schemas/aap/v0.1/examples')).filter((n) =>
    /-request\.example\.json$/.test(n),
  );

  it('answers every example request with a schema-valid reply, on HTTP+JSON and JSON-RPC', async () => {
    expect(requests.length).toBe(7);
    for (const name of requests) {
      const data = example(name);
      const skill = AAP_SKILLS.find((s) => s.requestType === data.type)!;
      const body = aapBody(data, skill.requestMediaType, [skill.responseMediaType]);
      const headers = skill.anonymousAllowed ? {} : bearer;
      const rest = await post(`${dealer.url}message:send`, body, headers);
      expect(rest.status, `${name}: ${JSON.stringify(rest.json)}`).toBe(200);
      expectValidReply(rest.json, body.message.messageId as string);
      const rpc = await post(
        dealer.url,
        { jsonrpc: '2.0', id: name, method: 'SendMessage', params: body },
        { ...headers, ...V1 },
      );
      expect(rpc.status).toBe(200);
      expect(rpc.json.id).toBe(name);
      expectValidReply(rpc.json.result, body.message.messageId as string);
    }
  });

  it('answers the upstream binding envelopes sent as they are', async () => {
    // They carry the seed curl's messageId with other filters, and the dealer takes a repeated
    // messageId from one caller for a retry (decision 0133): sent by a caller of their own.
    const rest = example('inventory-search-request.rest.example.json');
    const viaRest = await post(`${dealer.url}message:send`, rest, bearer);
    expect(viaRest.status).toBe(200);
    expectValidReply(viaRest.json, rest.message.messageId);
    const rpc = example('inventory-search-request.jsonrpc.example.json');
    const viaRpc = await post(dealer.url, rpc, bearer);
    expect(viaRpc.json.id).toBe(rpc.id);
    expectValidReply(viaRpc.json.result, rpc.params.message.messageId);
  });

  it('books the upstream appointment example as proposed: Sunday is closed', async () => {
    const data = example('appointment-lead-request.example.json');
    const reply = await post(`${dealer.url}message:send`, aapBody(data), bearer);
    const payload = expectValidReply(reply.json, '');
    expect(payload.data.status).toBe('proposed');
    expect(payload.data.proposed_slots).toHaveLength(4);
    expect(Date.parse(payload.data.proposed_slots[0].start)).toBeGreaterThan(
      Date.parse(data.requested_windows[0].start),
    );
  });
});

describe('the serve banner', () => {
  it("prints a curl that really runs: the seed's certified-Honda search, answered with vehicles", async () => {
    // The banner is log records (decision 0158): the pretty format puts time and level before the
    // curl, and its lines may still be arriving when the listening line has.
    const curlLine = (): string | undefined =>
      dealer
        .output()
        .split('\n')
        .find((l) => l.includes(' curl -s '));
    for (let waited = 0; curlLine() === undefined && waited < 5_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const found = curlLine();
    expect(found, dealer.output()).toBeDefined();
    const line = found!.slice(found!.indexOf('curl -s '));
    const result = await new Promise<Record<string, any>>((done, fail) => {
      // Run exactly what was printed, through a shell, as a user pasting it would.
      execFile('sh', ['-c', line!.trim()], { timeout: 20_000 }, (error, stdout) =>
        error === null ? done(JSON.parse(stdout)) : fail(error),
      );
    });
    const payload = expectValidReply(result.result, 'm1');
    expect(payload.type).toBe('inventory.search.response');
    expect(payload.data.total).toBeGreaterThan(0);
    expect(payload.data.vehicles.every((v: { make: string }) => v.make === 'Honda')).toBe(true);
  });
});

describe("the seed's seven curl calls", () => {
  const seed = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/seed-curls.json'), 'utf8')) as {
    calls: { skill: string; url: string; headers: string[]; body: string }[];
  };

  function curl(args: string[]): Promise<{ status: number; body: Record<string, any> }> {
    return new Promise((done, fail) => {
      execFile('curl', ['-s', '-w', '\n%{http_code}', ...args], { timeout: 20_000 }, (error, stdout) => {
        if (error !== null) return fail(error);
        const cut = stdout.lastIndexOf('\n');
        done({ status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) });
      });
    });
  }

  it('runs each one with only the host (and the token, for the lead skills) changed', async () => {
    expect(seed.calls.map((c) => c.skill)).toEqual(AAP_SKILLS.map((s) => s.id));
    const jwt = await token();
    const answers: Record<string, Record<string, any>> = {};
    for (const call of seed.calls) {
      const url = call.url.replace('https://demo-toyota.example.com', dealer.origin);
      expect(url).toBe(`${dealer.url}a2a/message:send`);
      const headers = call.headers.map((h) =>
        h.startsWith('Authorization: Bearer ') ? `Authorization: Bearer ${jwt}` : h,
      );
      if (call.skill.startsWith('lead.') && !headers.some((h) => h.startsWith('Authorization')))
        headers.push(`Authorization: Bearer ${jwt}`);
      const args = ['-X', 'POST', url, ...headers.flatMap((h) => ['-H', h]), '-d', call.body];
      const { status, body } = await curl(args);
      expect(status, `${call.skill}: ${JSON.stringify(body)}`).toBe(200);
      answers[call.skill] = expectValidReply(body, JSON.parse(call.body).message.messageId);
    }
    expect(answers['dealer.information']!.data.trade_name).toBe('Demo Toyota');
    const search = answers['inventory.search']!.data;
    expect(search.total).toBeGreaterThan(0);
    // The seed's Civic is among the matches (the same filters narrowed to its VIN).
    const civic = JSON.parse(seed.calls[2]!.body);
    civic.message.parts[0].data.filters.vin = '1HGCY2F57RA000001';
    // Another request needs another messageId: the dealer takes a repeated one for a retry (0133).
    civic.message.messageId = '01HZ9F4M7C0X3K5RN8B3WJTW3Q';
    const narrowed = await post(`${dealer.url}message:send`, civic);
    expect(expectValidReply(narrowed.json, civic.message.messageId).data.total).toBe(1);
    for (const v of search.vehicles) {
      expect(v.make).toBe('Honda');
      expect(['used', 'certified']).toContain(v.condition);
      expect(v.year).toBeGreaterThanOrEqual(2020);
      expect(v.price.amount).toBeLessThanOrEqual(30000);
      expect(v.status).not.toBe('Sold');
    }
    const prices = search.vehicles.map((v: { price: { amount: number } }) => v.price.amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const vehicle = answers['inventory.vehicle']!.data;
    expect(vehicle).toMatchObject({
      vin: '1HGCY2F57RA000001',
      year: 2022,
      make: 'Honda',
      model: 'Civic',
      condition: 'certified',
      zip_code: '94105',
    });
    expect(vehicle.offered_price.amount).toBeGreaterThan(vehicle.list_price.amount);
    expect(answers['inventory.facets']!.data.conditions).toEqual([
      { value: 'used', count: expect.any(Number) },
    ]);
    expect(answers['lead.general']!.data.status).toBe('received');
    expect(answers['lead.vehicle']!.data.status).toBe('received');
    // Saturday May 2, 10:00-11:00 in Los Angeles: open, and nobody booked it yet.
    expect(answers['lead.appointment']!.data).toMatchObject({
      status: 'confirmed',
      confirmed_window: { start: '2026-05-02T17:00:00Z', end: '2026-05-02T18:00:00Z' },
    });
    expect(NOW < '2026-05-02').toBe(true);
  });
});

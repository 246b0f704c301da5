/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read loosely in assertions */
// The negative suite: requests the dealer must refuse, each with the AAP code, the HTTP status
// of the seed's table and the §11.6 envelope (ErrorInfo + a schema-valid aap.error); the same
// refusals on JSON-RPC with the table's codes; output modes; duplicates; rate limits; restarts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aapSchemas } from '../../src/extensions/aap/internal.js';
import { aapBody, post, ROOT, startDealer, token, type Dealer } from './dealer-process.js';

const schemas = aapSchemas();
const example = (name: string): Record<string, any> =>
  JSON.parse(readFileSync(join(ROOT, 'schemas/aap/v0.1/examples', name), 'utf8'));
const search = (): Record<string, any> => example('inventory-search-request.example.json');
const vehicleLead = (): Record<string, any> => example('vehicle-lead-request.example.json');
const generalLead = (): Record<string, any> => example('general-lead-request.example.json');
const appointment = (): Record<string, any> => example('appointment-lead-request.example.json');
const SOLD_VIN = '4T1G11AK5NU000013';

let dir: string;
let dealer: Dealer;
let auth: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-dealer-neg-'));
  dealer = await startDealer(dir);
  auth = { authorization: `Bearer ${await token()}` };
}, 60_000);

afterAll(async () => {
  await dealer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function checkEnvelope(
  response: { status: number; json: Record<string, any> },
  code: string,
  status: number,
): Record<string, any> {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  const error = response.json.error;
  expect(error.code).toBe(status);
  const [info, detail] = error.details;
  expect(info).toMatchObject({
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: code,
    domain: 'autoagentprotocol.org',
  });
  for (const value of Object.values(info.metadata ?? {})) expect(typeof value).toBe('string');
  const { '@type': type, ...payload } = detail;
  expect(type).toBe('type.googleapis.com/aap.error');
  expect(schemas.validate('error.schema.json', payload)).toEqual([]);
  expect(payload).toMatchObject({ type: 'aap.error', code, message: error.message });
  return payload;
}

type Case = {
  name: string;
  data: () => unknown;
  code: string;
  status: number;
  anonymous?: boolean;
  headers?: () => Promise<Record<string, string>>;
  body?: (data: unknown) => unknown;
  path?: string;
};

const with_ = (base: () => Record<string, any>, change: (d: Record<string, any>) => void) => () => {
  const d = base();
  change(d);
  return d;
};

const CASES: Case[] = [
  {
    name: 'year_min as a string',
    data: with_(search, (d) => (d.filters.year_min = 'twenty-twenty')),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/year_min',
  },
  {
    name: 'price_max negative',
    data: with_(search, (d) => (d.filters.price_max = -1)),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/price_max',
  },
  {
    name: 'make not an array',
    data: with_(search, (d) => (d.filters.make = 'Honda')),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/make',
  },
  {
    name: 'unknown filter key',
    data: with_(search, (d) => (d.filters.colour = ['red'])),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/colour',
  },
  {
    name: 'unknown condition',
    data: with_(search, (d) => (d.filters.condition = ['salvage'])),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/condition/0',
  },
  {
    name: 'pagination limit 0',
    data: with_(search, (d) => (d.pagination.limit = 0)),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/pagination/limit',
  },
  {
    name: 'sort by an unknown field',
    data: with_(search, (d) => (d.sort.field = 'color')),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/sort/field',
  },
  {
    name: 'sort without order',
    data: with_(search, (d) => delete d.sort.order),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
    path: '/sort/order',
  },
  {
    name: 'bad VIN in a search filter',
    data: with_(search, (d) => (d.filters.vin = '1HGCY2F57RA00000I')),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/filters/vin',
  },
  {
    name: 'bad VIN on vehicle detail',
    data: () => ({ type: 'inventory.vehicle.request', vin: 'NOT-A-VIN' }),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/vin',
  },
  {
    name: 'vehicle detail without an identifier',
    data: () => ({ type: 'inventory.vehicle.request', zip_code: '94105' }),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
  },
  {
    name: 'unknown VIN',
    data: () => ({ type: 'inventory.vehicle.request', vin: '1HGCY2F57RA999999' }),
    code: 'VEHICLE_NOT_FOUND',
    status: 404,
  },
  {
    name: 'unknown stock number',
    data: () => ({ type: 'inventory.vehicle.request', stock: 'DT-0001' }),
    code: 'VEHICLE_NOT_FOUND',
    status: 404,
  },
  {
    name: 'sold vehicle detail',
    data: () => ({ type: 'inventory.vehicle.request', vin: SOLD_VIN }),
    code: 'VEHICLE_UNAVAILABLE',
    status: 409,
  },
  {
    name: 'lead on a sold vehicle',
    data: with_(vehicleLead, (d) => (d.vehicles = [{ vin: SOLD_VIN }])),
    code: 'VEHICLE_UNAVAILABLE',
    status: 409,
  },
  {
    name: 'lead on an unknown vehicle',
    data: with_(vehicleLead, (d) => (d.vehicles = [{ stock: 'NOPE-1' }])),
    code: 'VEHICLE_NOT_FOUND',
    status: 404,
  },
  {
    name: 'test drive of a sold vehicle',
    data: with_(appointment, (d) => (d.vehicles = [{ vin: SOLD_VIN }])),
    code: 'VEHICLE_UNAVAILABLE',
    status: 409,
  },
  {
    name: 'unknown skill',
    data: () => ({ type: 'inventory.lease.request' }),
    code: 'UNSUPPORTED_SKILL',
    status: 404,
  },
  {
    name: 'type that is not a request',
    data: () => ({ type: 'inventory.search.response' }),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/type',
  },
  {
    name: 'no type',
    data: () => ({ filters: {} }),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
    path: '/type',
  },
  {
    name: 'media type of another skill',
    data: search,
    body: (data) => aapBody(data, 'application/vnd.autoagent.dealer-information-request+json'),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
  },
  {
    name: 'text instead of a data part',
    data: () => null,
    body: () => ({ message: { messageId: 'm-text', role: 'ROLE_USER', parts: [{ text: 'find me a car' }] } }),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
    path: '/message/parts',
  },
  {
    name: 'missing consent',
    data: with_(vehicleLead, (d) => delete d.consent),
    code: 'CONTACT_CONSENT_REQUIRED',
    status: 403,
  },
  {
    name: 'wrong consent scope',
    data: with_(vehicleLead, (d) => (d.consent.scope = ['general_inquiry'])),
    code: 'INVALID_CONSENT',
    status: 403,
    path: '/consent/scope',
  },
  {
    name: 'preferred channel not allowed',
    data: with_(vehicleLead, (d) => (d.consent.allowed_channels = ['email'])),
    code: 'CONTACT_CONSENT_REQUIRED',
    status: 403,
    path: '/customer/preferred_contact',
  },
  {
    name: 'no allowed channel reaches the customer',
    data: with_(generalLead, (d) => {
      delete d.customer.email;
      d.customer.preferred_contact = 'any';
    }),
    code: 'CONTACT_CONSENT_REQUIRED',
    status: 403,
  },
  {
    name: 'consent granted in the future',
    data: with_(generalLead, (d) => (d.consent.granted_at = '2026-05-30T10:00:00Z')),
    code: 'INVALID_CONSENT',
    status: 403,
    path: '/consent/granted_at',
  },
  {
    name: 'expired consent',
    data: with_(generalLead, (d) => (d.consent.granted_at = '2024-01-15T10:00:00Z')),
    code: 'INVALID_CONSENT',
    status: 403,
    path: '/consent/granted_at',
  },
  {
    name: 'empty consent text',
    data: with_(generalLead, (d) => (d.consent.consent_text = '   ')),
    code: 'INVALID_CONSENT',
    status: 403,
    path: '/consent/consent_text',
  },
  {
    name: 'consent captured by another agent',
    data: with_(generalLead, (d) => (d.consent.source_agent = 'someone-else')),
    code: 'INVALID_CONSENT',
    status: 403,
  },
  {
    name: 'consent with an unknown channel',
    data: with_(generalLead, (d) => (d.consent.allowed_channels = ['fax'])),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
  },
  {
    name: 'test drive without vehicles',
    data: with_(appointment, (d) => delete d.vehicles),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
    path: '/vehicles',
  },
  {
    name: 'appointment without windows',
    data: with_(appointment, (d) => delete d.requested_windows),
    code: 'MISSING_REQUIRED_FIELD',
    status: 422,
    path: '/requested_windows',
  },
  {
    name: 'window ending before it starts',
    data: with_(
      appointment,
      (d) => (d.requested_windows = [{ start: '2026-05-04T17:00:00Z', end: '2026-05-04T16:00:00Z' }]),
    ),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/requested_windows/0/end',
  },
  {
    name: 'unknown timezone',
    data: with_(appointment, (d) => (d.timezone = 'Mars/Olympus_Mons')),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/timezone',
  },
  {
    name: 'appointment no day can hold',
    data: with_(appointment, (d) => (d.duration_minutes = 900)),
    code: 'APPOINTMENT_TIME_UNAVAILABLE',
    status: 409,
  },
  {
    name: 'duration under 15 minutes',
    data: with_(appointment, (d) => (d.duration_minutes = 5)),
    code: 'SCHEMA_VALIDATION_FAILED',
    status: 422,
    path: '/duration_minutes',
  },
  {
    name: 'lead without a bearer token',
    data: generalLead,
    headers: async () => ({}),
    code: 'AUTH_REQUIRED',
    status: 401,
  },
  {
    name: 'lead with an invalid token',
    data: vehicleLead,
    headers: async () => ({ authorization: 'Bearer not-a-jwt' }),
    code: 'AUTH_REQUIRED',
    status: 401,
  },
  {
    name: 'lead with an expired token',
    data: vehicleLead,
    headers: async () => ({ authorization: `Bearer ${await token('late', '-1m')}` }),
    code: 'AUTH_REQUIRED',
    status: 401,
  },
  {
    name: 'appointment without a token',
    data: appointment,
    headers: async () => ({}),
    code: 'AUTH_REQUIRED',
    status: 401,
  },
];

describe('negative suite (HTTP+JSON)', () => {
  it(`has at least 30 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const each of CASES) {
    it(`${each.name} -> ${each.code} ${each.status}`, async () => {
      const data = each.data();
      const body = each.body !== undefined ? each.body(data) : aapBody(data);
      const headers = each.headers !== undefined ? await each.headers() : auth;
      const response = await post(`${dealer.url}message:send`, body, headers);
      const payload = checkEnvelope(response, each.code, each.status);
      if (each.path !== undefined) expect(payload.details?.instancePath).toBe(each.path);
      if (each.status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });
  }

  it('an A2A message without messageId is refused in A2A terms, as the binding read it (decision 0135)', async () => {
    const body = {
      message: { role: 'ROLE_USER', parts: [{ data: { type: 'dealer.information.request' } }] },
    };
    const response = await post(`${dealer.url}message:send`, body);
    expect(response.status).toBe(400);
    expect(response.json.error.details[0]).toMatchObject({ reason: 'INVALID_PARAMS' });
    expect(response.json.error.details[0].domain).not.toBe('autoagentprotocol.org');
  });

  it('answers the seed error example in its shape', async () => {
    const response = await post(
      `${dealer.url}message:send`,
      aapBody({ type: 'inventory.search.request', filters: { year_min: 'twenty-twenty' } }),
    );
    const payload = checkEnvelope(response, 'SCHEMA_VALIDATION_FAILED', 422);
    expect(response.json.error.message).toBe('filters.year_min must be an integer');
    expect(payload).toMatchObject({
      retryable: false,
      details: { instancePath: '/filters/year_min', received: 'twenty-twenty' },
    });
    expect(response.json.error.details[0].metadata).toMatchObject({
      instancePath: '/filters/year_min',
      received: 'twenty-twenty',
    });
  });
});

describe('the same refusals on JSON-RPC', () => {
  const rpc = (params: unknown, headers: Record<string, string> = {}) =>
    post(
      dealer.url,
      { jsonrpc: '2.0', id: 'r1', method: 'SendMessage', params },
      { 'a2a-version': '1.0', ...headers },
    );

  it('uses the table codes with ErrorInfo and aap.error in error.data', async () => {
    const expectations: [unknown, Record<string, string>, string, number, number][] = [
      [aapBody({ type: 'inventory.lease.request' }), {}, 'UNSUPPORTED_SKILL', -32601, 200],
      [
        aapBody({ type: 'inventory.search.request', filters: { year_min: 'x' } }),
        {},
        'SCHEMA_VALIDATION_FAILED',
        -32602,
        200,
      ],
      [aapBody({ type: 'inventory.vehicle.request', vin: SOLD_VIN }), {}, 'VEHICLE_UNAVAILABLE', -32000, 200],
      [aapBody(with_(vehicleLead, (d) => delete d.consent)()), auth, 'CONTACT_CONSENT_REQUIRED', -32000, 200],
      [aapBody(generalLead()), {}, 'AUTH_REQUIRED', -32001, 401],
    ];
    for (const [params, headers, code, rpcCode, status] of expectations) {
      const response = await rpc(params, headers);
      expect(response.status, code).toBe(status);
      expect(response.json.id).toBe('r1');
      expect(response.json.error.code, code).toBe(rpcCode);
      const [info, detail] = response.json.error.data;
      expect(info).toMatchObject({ reason: code, domain: 'autoagentprotocol.org' });
      const { '@type': _t, ...payload } = detail;
      expect(schemas.validate('error.schema.json', payload)).toEqual([]);
      expect(payload.code).toBe(code);
    }
  });

  it('puts the aap.error payload itself in a 0.3 error.data', async () => {
    const response = await post(
      dealer.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm03',
            role: 'user',
            parts: [{ kind: 'data', data: { type: 'inventory.vehicle.request', vin: SOLD_VIN } }],
          },
        },
      },
      { 'a2a-version': '0.3' },
    );
    expect(response.json.error.code).toBe(-32000);
    expect(response.json.error.data.details).toMatchObject({
      type: 'aap.error',
      code: 'VEHICLE_UNAVAILABLE',
    });
  });
});

describe('output modes, duplicates and restarts', () => {
  it('answers in text when the buyer accepts only text, and refuses modes it cannot produce', async () => {
    const text = await post(
      `${dealer.url}message:send`,
      aapBody({ type: 'dealer.information.request' }, undefined, ['text/plain']),
    );
    expect(text.status).toBe(200);
    expect(text.json.message.parts[0].text).toContain('Demo Toyota');
    const none = await post(
      `${dealer.url}message:send`,
      aapBody({ type: 'dealer.information.request' }, undefined, ['image/png']),
    );
    expect(none.status).toBe(400);
    expect(none.json.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('answers a repeated lead as a duplicate of the first', async () => {
    const lead = with_(generalLead, (d) => (d.customer.email = 'dup.test@example.com'))();
    const first = await post(`${dealer.url}message:send`, aapBody(lead), auth);
    const second = await post(`${dealer.url}message:send`, aapBody(lead), auth);
    expect(first.json.message.parts[0].data.data.status).toBe('received');
    expect(second.json.message.parts[0].data.data).toMatchObject({
      status: 'duplicate',
      lead_id: first.json.message.parts[0].data.data.lead_id,
    });
  });

  it('answers a retry with the same messageId as it answered the first send (decision 0133)', async () => {
    const lead = with_(generalLead, (d) => (d.customer.email = 'retry.test@example.com'))();
    const body = aapBody(lead);
    const first = await post(`${dealer.url}message:send`, body, auth);
    const [retry, concurrent] = await Promise.all([
      post(`${dealer.url}message:send`, body, auth),
      post(dealer.url, { jsonrpc: '2.0', id: 7, method: 'SendMessage', params: body }, auth),
    ]);
    expect(first.json.message.parts[0].data.data.status).toBe('received');
    // The first reply itself, not a `duplicate`: the skill ran once.
    expect(retry.json).toEqual(first.json);
    expect(concurrent.json.result).toEqual(first.json);
    // The same messageId for another request is refused: AAP buyers make a ULID per request.
    const other = aapBody(with_(generalLead, (d) => (d.customer.email = 'other.test@example.com'))());
    const reused = await post(
      `${dealer.url}message:send`,
      { ...body, message: { ...other.message, messageId: body.message.messageId } },
      auth,
    );
    const refusal = checkEnvelope(reused, 'SCHEMA_VALIDATION_FAILED', 422);
    expect(refusal.details.instancePath).toBe('/message/parts');
    expect(refusal.message).toContain('messageId was already used');
    // A new messageId is a new request: the same lead is now a duplicate of the first.
    const fresh = await post(`${dealer.url}message:send`, aapBody(lead), auth);
    expect(fresh.json.message.parts[0].data.data.status).toBe('duplicate');
  });

  it('keeps leads and appointments across a restart on the same data directory', async () => {
    const own = mkdtempSync(join(tmpdir(), 'concord-dealer-restart-'));
    try {
      let running = await startDealer(own);
      const lead = with_(vehicleLead, (d) => (d.customer.email = 'restart@example.com'))();
      const booking = with_(
        appointment,
        (d) => (d.requested_windows = [{ start: '2026-05-04T17:00:00Z', end: '2026-05-04T18:00:00Z' }]),
      )();
      const made = await post(`${running.url}message:send`, aapBody(lead), auth);
      const booked = await post(`${running.url}message:send`, aapBody(booking), auth);
      const leadId = made.json.message.parts[0].data.data.lead_id;
      expect(booked.json.message.parts[0].data.data.status).toBe('confirmed');
      running.child.kill('SIGKILL');
      await new Promise((done) => running.child.once('exit', done));

      running = await startDealer(own);
      const again = await post(`${running.url}message:send`, aapBody(lead), auth);
      expect(again.json.message.parts[0].data.data).toMatchObject({ status: 'duplicate', lead_id: leadId });
      // The car is booked for that hour: the same request now gets alternatives.
      const rebook = await post(`${running.url}message:send`, aapBody(booking), auth);
      expect(rebook.json.message.parts[0].data.data.status).toBe('proposed');
      await running.stop();
      const db = new Database(join(own, 'dealer.db'), { readonly: true });
      const leads = db.prepare('SELECT COUNT(*) AS n FROM dealer_leads').get() as { n: number };
      const confirmed = db
        .prepare("SELECT COUNT(*) AS n FROM dealer_appointments WHERE status = 'confirmed'")
        .get() as { n: number };
      db.close();
      expect(leads.n).toBe(1);
      expect(confirmed.n).toBe(1);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);

  it('limits each client per skill with RATE_LIMITED and retry_after_ms', async () => {
    const own = mkdtempSync(join(tmpdir(), 'concord-dealer-rate-'));
    const limited = await startDealer(own, { DEALER_RATE_LIMIT: '3', DEALER_VEHICLES: '200' });
    try {
      const body = () => aapBody({ type: 'dealer.information.request' });
      for (let i = 0; i < 3; i++) expect((await post(`${limited.url}message:send`, body())).status).toBe(200);
      const refused = await post(`${limited.url}message:send`, body());
      const payload = checkEnvelope(refused, 'RATE_LIMITED', 429);
      expect(payload.retryable).toBe(true);
      expect(payload.details.retry_after_ms).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another skill has its own budget.
      expect(
        (await post(`${limited.url}message:send`, aapBody({ type: 'inventory.facets.request' }))).status,
      ).toBe(200);
      const rpc = await post(limited.url, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: body() });
      expect(rpc.status).toBe(429);
      expect(rpc.json.error.code).toBe(-32002);
    } finally {
      await limited.stop();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});

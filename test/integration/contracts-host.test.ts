// Contracts through the host over HTTP (decision 0016): every row of both seed tables ("Validation
// behavior") on JSON-RPC and HTTP+JSON, 0.3 and 1.0; both envelope carriers; deprecation
// warnings on the wire; output checks; and the approval flow through the HTTP API.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { CONTRACT_MEDIA_TYPE, createContractMessage } from '../../src/contracts/index.js';
import type { Message } from '../../src/protocol/index.js';
import { allDrivers, taskOf, type Driver } from '../helpers/drivers.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/contracts');

let dir: string;
let host: RunningHost;
let researcher: Driver[];
let reviewer: Driver[];

const envelope = (contract: string, payload: unknown, correlationId?: string) => ({
  _a2a: true,
  contract,
  payload,
  ...(correlationId === undefined ? {} : { correlationId }),
});
const asData = (contract: string, payload: unknown, correlationId?: string): Message => ({
  messageId: `m-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ data: envelope(contract, payload, correlationId) }],
});
const asText = (contract: string, payload: unknown, correlationId?: string): Message => ({
  messageId: `m-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ text: JSON.stringify(envelope(contract, payload, correlationId)) }],
});
const plain = (text: string): Message => ({
  messageId: `m-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ text }],
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-contracts-'));
  cpSync(FIXTURE, dir, { recursive: true });
  host = await startHost(dir, { port: 0, internalPort: 0, store: 'sqlite', dataDir: join(dir, 'data') });
  researcher = allDrivers(`${host.url}agents/researcher/`);
  reviewer = allDrivers(`${host.url}agents/reviewer/`);
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('structured messages (seed table 1)', () => {
  it('payload matches the input schema: delivered with contract context, from a data or a text part', async () => {
    for (const driver of researcher) {
      for (const make of [asData, asText]) {
        const task = taskOf(
          await driver.send(make('research.request', { query: 'AI trends', depth: 'deep' }, 'c-42')),
        );
        expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
        const reply = task.artifacts?.[0]?.parts[0] as { data: { findings: string } };
        expect(reply.data.findings, driver.name).toBe(
          'research.request:{"query":"AI trends","depth":"deep"}:c-42',
        );
        expect(task.metadata?.['concord/contract'], driver.name).toEqual({
          name: 'research.request',
          correlationId: 'c-42',
        });
      }
    }
  });

  it('payload fails validation: rejected with every failure listed (-32602 / 400)', async () => {
    for (const driver of researcher) {
      const outcome = await driver.send(asData('research.request', { depth: 'bottomless', extra: 1 }));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.httpStatus, driver.name).toBe(driver.binding === 'JSONRPC' ? 200 : 400);
      expect(outcome.error.message, driver.name).toMatch(
        /^Contract "research.request" input validation failed: /,
      );
      const fields = outcome.error.violations.map((v) => v.field);
      expect(fields, driver.name).toContain('/message/parts/0/data/payload/query');
      expect(fields, driver.name).toContain('/message/parts/0/data/payload/depth');
    }
  });

  it('contract not found, agent has other contracts: rejected with the available contracts', async () => {
    for (const driver of researcher) {
      const outcome = await driver.send(asData('research.summarise', { query: 'x' }));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.message, driver.name).toBe(
        'Agent "researcher" does not expose contract "research.summarise". Available: research.request, research.query, research.query-v2, payment.send',
      );
    }
  });

  it('contract not found, agent has no contracts: delivered best-effort, without validation', async () => {
    for (const driver of reviewer) {
      const task = taskOf(await driver.send(asData('anything.at.all', { not: 'validated' })));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(JSON.stringify(task.artifacts), driver.name).toContain('reviewed:');
      expect(task.metadata?.['concord/contract'], driver.name).toBeUndefined();
    }
  });
});

describe("seed table 1 with the text carrier (the seed's own form)", () => {
  it('payload fails validation: rejected, each failure pointing at the text part', async () => {
    for (const driver of researcher) {
      const outcome = await driver.send(asText('research.request', { depth: 'bottomless' }));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.httpStatus, driver.name).toBe(driver.binding === 'JSONRPC' ? 200 : 400);
      expect(outcome.error.message, driver.name).toBe(
        'Contract "research.request" input validation failed: /query: is required; /depth: must be one of ["shallow", "deep"], got "bottomless"',
      );
      expect(outcome.error.violations, driver.name).toEqual([
        { field: '/message/parts/0/text', description: 'required: is required (at payload /query)' },
        {
          field: '/message/parts/0/text',
          description: 'enum: must be one of ["shallow", "deep"], got "bottomless" (at payload /depth)',
        },
      ]);
    }
  });

  it('contract not found, agent has other contracts: rejected with the available contracts', async () => {
    for (const driver of researcher) {
      const outcome = await driver.send(asText('research.summarise', { query: 'x' }));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.message, driver.name).toMatch(
        /^Agent "researcher" does not expose contract "research.summarise". Available: research.request, /,
      );
      expect(outcome.error.violations[0]?.field, driver.name).toBe('/message/parts/0/text');
    }
  });

  it('contract not found, agent has no contracts: delivered best-effort', async () => {
    for (const driver of reviewer) {
      const task = taskOf(await driver.send(asText('anything.at.all', { not: 'validated' })));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(JSON.stringify(task.artifacts), driver.name).toContain('reviewed:');
      expect(task.metadata?.['concord/contract'], driver.name).toBeUndefined();
    }
  });

  it('a deprecated contract in a text part delivers with its warnings', async () => {
    for (const driver of researcher) {
      const task = taskOf(await driver.send(asText('research.query', { topic: 'agents' }, 'c-t')));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(task.metadata?.['concord/contract'], driver.name).toMatchObject({
        name: 'research.query',
        correlationId: 'c-t',
        warnings: [
          'research.query is retired at the end of the quarter.',
          'Use "research.query-v2" instead.',
        ],
      });
    }
  });
});

describe('the contract media type on data parts', () => {
  const byMediaType = (payload: unknown): Message => ({
    messageId: `m-${Math.random()}`,
    role: 'ROLE_USER',
    // No `_a2a` marker: the media type says what the part is (decision 0016).
    parts: [{ data: { contract: 'research.request', payload }, mediaType: CONTRACT_MEDIA_TYPE }],
  });

  it('marks the envelope on 1.0, where data parts carry a media type', async () => {
    for (const driver of researcher.filter((d) => d.version === '1.0')) {
      const task = taskOf(await driver.send(byMediaType({ query: 'by media type' })));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(task.metadata?.['concord/contract'], driver.name).toEqual({ name: 'research.request' });
      const refused = await driver.send(byMediaType({ query: 1 }));
      expect(refused.ok, driver.name).toBe(false);
      if (!refused.ok) {
        expect(
          refused.error.violations.map((v) => v.field),
          driver.name,
        ).toEqual(['/message/parts/0/data/payload/query']);
      }
    }
  });

  it('needs the `_a2a` marker on 0.3, whose data parts carry no media type', async () => {
    for (const driver of researcher.filter((d) => d.version === '0.3')) {
      // Without the marker the part is plain data, refused by an agent that takes contracts only.
      const unmarked = await driver.send(byMediaType({ query: 'x' }));
      expect(unmarked.ok, driver.name).toBe(false);
      if (!unmarked.ok)
        expect(unmarked.error.message, driver.name).toContain('requires structured A2A messages');
      // createContractMessage keeps the marker, so its messages work on both versions.
      const task = taskOf(
        await driver.send(createContractMessage({ name: 'research.request' }, { query: 'x' })),
      );
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
    }
  });
});

describe('plain text messages (seed table 2)', () => {
  it('allowFreeform true (the default): delivered normally', async () => {
    for (const driver of reviewer) {
      const task = taskOf(await driver.send(plain('please review')));
      expect(task.artifacts?.[0]?.parts[0], driver.name).toEqual({ text: 'reviewed: please review' });
    }
  });

  it('allowFreeform false: rejected with the list of available contracts', async () => {
    for (const driver of researcher) {
      const outcome = await driver.send(plain('what is new in AI?'));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.message, driver.name).toBe(
        'Agent "researcher" requires structured A2A messages (allowFreeform=false). Available contracts: research.request, research.query, research.query-v2, payment.send',
      );
    }
  });
});

describe('versioning and deprecation', () => {
  it('a deprecated contract validates and delivers, and the result carries its warnings', async () => {
    for (const driver of researcher) {
      const task = taskOf(await driver.send(asData('research.query', { topic: 'agents' })));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(task.metadata?.['concord/contract'], driver.name).toEqual({
        name: 'research.query',
        version: '1.0.0',
        warnings: [
          'research.query is retired at the end of the quarter.',
          'Use "research.query-v2" instead.',
        ],
      });
    }
  });
});

describe('requiresApproval through the HTTP API', () => {
  const approvals = () => `${host.internalUrl}agents/researcher/approvals`;

  it('holds the message in auth-required until the owner approves, then runs it', async () => {
    const [driver] = researcher;
    const held = taskOf(await driver!.send(asData('payment.send', { invoice: 'INV-1', amount: 12.5 })));
    expect(held.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(held.artifacts ?? []).toEqual([]);
    const approvalId = (held.metadata?.['concord/approval'] as { id: string }).id;

    // Not on the public listener (this host has no security to tell owners apart).
    expect((await fetch(`${host.url}agents/researcher/approvals`)).status).toBe(404);

    const pending = (await (await fetch(`${approvals()}?status=pending`)).json()) as {
      approvals: { id: string; contract: string; taskId: string }[];
    };
    expect(pending.approvals.map((a) => a.id)).toContain(approvalId);

    const decided = await fetch(`${approvals()}/${approvalId}:approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'invoice checked' }),
    });
    expect(decided.status).toBe(200);
    const body = (await decided.json()) as { approval: { status: string; decidedBy: string } };
    expect(body.approval).toMatchObject({ status: 'approved', decidedBy: 'internal' });

    let state = '';
    for (let i = 0; i < 50 && state !== 'TASK_STATE_COMPLETED'; i++) {
      const got = await driver!.getTask(held.id);
      state = got.ok ? got.value.status.state : '';
      if (state !== 'TASK_STATE_COMPLETED') await new Promise((r) => setTimeout(r, 20));
    }
    expect(state).toBe('TASK_STATE_COMPLETED');

    const again = await fetch(`${approvals()}/${approvalId}:reject`, { method: 'POST' });
    expect(again.status).toBe(409);
    const audit = (await (await fetch(`${approvals()}/${approvalId}`)).json()) as {
      history: { action: string; by?: string; reason?: string }[];
    };
    expect(audit.history.map((h) => h.action)).toEqual(['requested', 'approved']);
    expect(audit.history[1]).toMatchObject({ by: 'internal', reason: 'invoice checked' });
  });

  it('ends the task rejected, with the reason, when the owner rejects', async () => {
    const [, driver] = researcher;
    const held = taskOf(await driver!.send(asData('payment.send', { invoice: 'INV-2', amount: 99 })));
    const approvalId = (held.metadata?.['concord/approval'] as { id: string }).id;
    const decided = await fetch(`${approvals()}/${approvalId}:reject`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'duplicate invoice' }),
    });
    expect(decided.status).toBe(200);
    const got = await driver!.getTask(held.id);
    expect(got.ok && got.value.status.state).toBe('TASK_STATE_REJECTED');
    expect(JSON.stringify(got.ok && got.value.status.message)).toContain('duplicate invoice');
  });

  it('validates before asking anyone: an invalid payment is refused outright', async () => {
    const [driver] = researcher;
    const outcome = await driver!.send(asData('payment.send', { invoice: 'INV-3', amount: 0 }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error.violations.map((v) => v.field)).toContain('/message/parts/0/data/payload/amount');
    expect((await fetch(`${approvals()}/no-such-id`)).status).toBe(404);
  });
});

describe('discovery', () => {
  it('puts one skill per contract and the contracts extension with the schemas in the card', async () => {
    const card = (await (
      await fetch(`${host.url}agents/researcher/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as {
      skills: { id: string; inputModes?: string[] }[];
      capabilities: {
        extensions?: { uri: string; params: { contracts: { name: string; input?: unknown }[] } }[];
      };
    };
    expect(card.skills.map((s) => s.id)).toEqual([
      'research.request',
      'research.query',
      'research.query-v2',
      'payment.send',
    ]);
    const extension = card.capabilities.extensions?.find((e) => e.uri === 'urn:concord:a2a-contracts:v1');
    expect(extension?.params.contracts.map((c) => c.name)).toEqual([
      'research.request',
      'research.query',
      'research.query-v2',
      'payment.send',
    ]);
    expect(extension?.params.contracts[0]?.input).toMatchObject({ required: ['query'] });
  });

  it('publishes the contracts at stable URLs, cacheable', async () => {
    const all = await fetch(`${host.url}agents/researcher/contracts`);
    expect(all.status).toBe(200);
    const body = (await all.json()) as {
      agentId: string;
      allowFreeform: boolean;
      contracts: { name: string }[];
    };
    expect(body).toMatchObject({ agentId: 'researcher', allowFreeform: false });
    const one = await fetch(`${host.url}agents/researcher/contracts/research.query`);
    expect(await one.json()).toMatchObject({
      name: 'research.query',
      deprecated: true,
      supersededBy: 'research.query-v2',
    });
    const etag = one.headers.get('etag')!;
    const again = await fetch(`${host.url}agents/researcher/contracts/research.query`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const missing = await fetch(`${host.url}agents/researcher/contracts/nope`);
    expect(missing.status).toBe(404);
    expect(JSON.stringify(await missing.json())).toContain('Available: research.request');
  });
});

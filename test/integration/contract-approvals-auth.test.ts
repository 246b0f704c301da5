// Approvals on a host with security (decision 0017): deciding needs a caller the
// host authenticates with the `agents:approve` scope. Over HTTP on the public listener and with
// `concord approvals --token` (the CLI as a child process): no token is 401, a token without the
// scope is 403 and decides nothing, a token with it decides, and the decision records who.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const SECRET = 'an-approvals-test-secret-of-32-bytes!!';

let dir: string;
let host: RunningHost;
let agentUrl: string;
let caller: string;
let reader: string;
let owner: string;

function token(sub: string, scope: string): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // No CONCORD_TOKEN from the outside: each call says which token it uses.
  const env = { ...process.env, CONCORD_TOKEN: '', CONCORD_API_KEY: '' };
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, 'approvals', ...args],
      { env, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        done({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-approvals-auth-'));
  cpSync(join(import.meta.dirname, 'fixtures/contracts'), dir, { recursive: true });
  const file = join(dir, 'concord.config.json5');
  const config = JSON5.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.security = {
    schemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', secret: SECRET } },
    requirements: [{ bearer: [] }],
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  host = await startHost(dir, { port: 0, store: 'memory' });
  agentUrl = `${host.url}agents/researcher/`;
  caller = await token('client-1', '');
  reader = await token('auditor', 'agents:read');
  owner = await token('owner-1', 'agents:approve');
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends a payment for approval as an authenticated client; returns the task and approval ids. */
async function holdPayment(invoice: string): Promise<{ taskId: string; approvalId: string }> {
  const response = await fetch(agentUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${caller}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          parts: [{ data: { _a2a: true, contract: 'payment.send', payload: { invoice, amount: 10 } } }],
        },
      },
    }),
  });
  const task = (
    (await response.json()) as {
      result: { task: { id: string; status: { state: string }; metadata: Record<string, { id: string }> } };
    }
  ).result.task;
  expect(task.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
  return { taskId: task.id, approvalId: task.metadata['concord/approval']!.id };
}

const approvals = (path = '') => `${agentUrl}approvals${path}`;
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

async function state(taskId: string): Promise<string> {
  const response = await fetch(`${agentUrl}tasks/${taskId}`, {
    headers: { 'a2a-version': '1.0', ...bearer(caller) },
  });
  return ((await response.json()) as { status: { state: string } }).status.state;
}

describe('approvals with security on, over HTTP', () => {
  it('answers 401 without a token and 403 without the approve scope, and decides nothing', async () => {
    const { approvalId, taskId } = await holdPayment('INV-A1');
    const anonymous = await fetch(approvals('?status=pending'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const listed = await fetch(approvals('?status=pending'), { headers: bearer(reader) });
    expect(listed.status).toBe(403);
    const body = (await listed.json()) as { error: { message: string; details: { reason?: string }[] } };
    expect(body.error.details.find((d) => d.reason !== undefined)?.reason).toBe('PERMISSION_DENIED');
    expect(body.error.message).toContain('agents:approve');
    const decided = await fetch(approvals(`/${approvalId}:approve`), {
      method: 'POST',
      headers: bearer(reader),
    });
    expect(decided.status).toBe(403);
    // Still pending, still held.
    const shown = await fetch(approvals(`/${approvalId}`), { headers: bearer(owner) });
    expect(((await shown.json()) as { approval: { status: string } }).approval.status).toBe('pending');
    expect(await state(taskId)).toBe('TASK_STATE_AUTH_REQUIRED');
  });

  it('lets a caller with the approve scope decide, recording who', async () => {
    const { approvalId, taskId } = await holdPayment('INV-A2');
    const decided = await fetch(approvals(`/${approvalId}:approve`), {
      method: 'POST',
      headers: { ...bearer(owner), 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'checked' }),
    });
    expect(decided.status).toBe(200);
    expect(((await decided.json()) as { approval: unknown }).approval).toMatchObject({
      status: 'approved',
      decidedBy: 'owner-1',
      reason: 'checked',
    });
    let current = '';
    for (let i = 0; i < 50 && current !== 'TASK_STATE_COMPLETED'; i++) {
      current = await state(taskId);
      if (current !== 'TASK_STATE_COMPLETED') await new Promise((r) => setTimeout(r, 20));
    }
    expect(current).toBe('TASK_STATE_COMPLETED');
  });
});

describe('approvals with security on, through `concord approvals --token`', () => {
  it('refuses without a token or without the scope, and decides with it', async () => {
    const { approvalId, taskId } = await holdPayment('INV-C1');
    const none = await cli(['list', agentUrl, '--status', 'pending']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('concord approvals list: HTTP 401');

    const scopeless = await cli(['reject', agentUrl, approvalId, '--token', reader, '--reason', 'no']);
    expect(scopeless.code).toBe(1);
    expect(scopeless.stderr).toContain('concord approvals reject: HTTP 403');
    // The token itself is never printed.
    expect(scopeless.stderr).not.toContain(reader);

    const listed = await cli(['list', agentUrl, '--status', 'pending', '--token', owner]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${approvalId}\\s+pending\\s+payment\\.send\\s+task ${taskId}`));

    const rejected = await cli(['reject', agentUrl, approvalId, '--token', owner, '--reason', 'duplicate']);
    expect(rejected.stderr).toBe('');
    expect(rejected.code).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      approval: { status: 'rejected', decidedBy: 'owner-1', reason: 'duplicate' },
    });
    expect(await state(taskId)).toBe('TASK_STATE_REJECTED');
  });
});

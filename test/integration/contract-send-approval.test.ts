// requiresApproval reached through agent-to-agent send on one host (decisions 0017, 0020): an
// agent's `context.agents.send` of a `requiresApproval` contract is held exactly as a call over
// HTTP is: the sender gets the task in auth-required, nothing runs until the owner approves, and
// the approval names the sending agent's task.
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import type { Task } from '../../src/protocol/index.js';
import { jsonRpcDriver, taskOf } from '../helpers/drivers.js';

let dir: string;
let host: RunningHost;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-send-approval-'));
  cpSync(join(import.meta.dirname, 'fixtures/contracts'), dir, { recursive: true });
  copyFileSync(join(import.meta.dirname, 'fixtures/remote/caller.mjs'), join(dir, 'caller.mjs'));
  const file = join(dir, 'concord.config.json5');
  const config = JSON5.parse(readFileSync(file, 'utf8')) as { agents: { list: unknown[] } };
  config.agents.list.push({
    id: 'caller',
    description: 'Sends where it is told',
    exposed: true,
    handler: './caller.mjs',
  });
  writeFileSync(file, JSON.stringify(config, null, 2));
  host = await startHost(dir, { port: 0, internalPort: 0, store: 'memory' });
});

afterAll(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an approval hold triggered by agents.send', () => {
  it('returns the held task to the sending agent and runs it once the owner approves', async () => {
    const caller = jsonRpcDriver(`${host.url}agents/caller/`, '1.0');
    const outer = taskOf(
      await caller.send({
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [
          {
            data: {
              target: 'researcher',
              contract: 'payment.send',
              payload: { invoice: 'INV-S1', amount: 3 },
            },
          },
        ],
      }),
    );
    expect(outer.status.state).toBe('TASK_STATE_COMPLETED');
    const held = (outer.artifacts?.[0]?.parts[0]?.data as { response: { task: Task } }).response.task;
    expect(held.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    expect(held.artifacts ?? []).toEqual([]);
    const approvalId = (held.metadata?.['concord/approval'] as { id: string }).id;

    const approvals = `${host.internalUrl}agents/researcher/approvals`;
    const shown = (await (await fetch(`${approvals}/${approvalId}`)).json()) as {
      approval: { status: string; contract: string; taskId: string };
    };
    expect(shown.approval).toMatchObject({ status: 'pending', contract: 'payment.send', taskId: held.id });

    const decided = await fetch(`${approvals}/${approvalId}:approve`, { method: 'POST' });
    expect(decided.status).toBe(200);
    // The held task belongs to the sending agent (principal agent:caller), so it is read in process.
    const researcher = host.host.mounted.get('researcher')!.server.handler;
    const call = {
      version: '1.0' as const,
      tenant: '',
      activatedExtensions: [],
      user: { name: 'agent:caller', scopes: [] },
    };
    let task: Task | undefined;
    for (let i = 0; i < 50 && task?.status.state !== 'TASK_STATE_COMPLETED'; i++) {
      task = await researcher.getTask({ id: held.id }, call);
      if (task.status.state !== 'TASK_STATE_COMPLETED') await new Promise((r) => setTimeout(r, 20));
    }
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task?.artifacts?.[0]?.parts[0]?.data).toMatchObject({
      findings: `payment.send:{"invoice":"INV-S1","amount":3}:${outer.id}`,
    });
    // Nobody else sees it: an anonymous caller over HTTP gets 404 for another principal's task.
    const anonymous = await jsonRpcDriver(`${host.url}agents/researcher/`, '1.0').getTask(held.id);
    expect(anonymous.ok).toBe(false);
  });
});

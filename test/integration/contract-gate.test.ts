// The server's contract seam through HTTP, with a hand-written gate: refusals reach every binding
// with their code, the executor sees the invocation, results carry the contract metadata and
// warnings, and replies are checked against the output schema (fail and warn policies).
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError, type Message } from '../../src/protocol/index.js';
import {
  createA2AServer,
  type ContractGate,
  type ContractInvocation,
  type RequestContext,
} from '../../src/server/internal.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { allDrivers, taskOf } from '../helpers/drivers.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function gate(policy: 'fail' | 'warn' = 'fail'): ContractGate {
  return {
    outputPolicy: policy,
    admit(message: Message): ContractInvocation | undefined {
      const data = message.parts.find((p) => 'data' in p)?.data as Record<string, unknown> | undefined;
      if (data?._a2a !== true) return undefined;
      if (data.contract !== 'sum') {
        throw new A2AError(
          'InvalidParamsError',
          `Agent "calc" does not expose contract "${String(data.contract)}". Available: sum`,
          {
            violations: [{ field: '/message/parts/0/data/contract', description: 'unknown contract' }],
          },
        );
      }
      return {
        name: 'sum',
        version: '2.0.0',
        payload: data.payload,
        correlationId: 'corr-1',
        outputSchema: { type: 'object', required: ['total'] },
        warnings: ['This contract is deprecated.', 'Use "sum-v3" instead.'],
        requiresApproval: false,
      };
    },
    checkOutput(_contract, value) {
      const ok = typeof value === 'object' && value !== null && 'total' in value;
      return ok ? [] : [{ path: '/total', keyword: 'required', message: 'must have property total' }];
    },
  };
}

async function start(policy: 'fail' | 'warn', seen: RequestContext[] = []): Promise<string> {
  const server = createA2AServer({
    agentCard: {
      name: 'calc',
      description: 'adds numbers',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      skills: [{ id: 'sum', name: 'sum', description: 'adds', tags: ['math'] }],
    },
    contracts: gate(policy),
    executor: {
      execute(context, updater) {
        seen.push(context);
        const payload = context.contract?.payload as { a: number; b: number; wrong?: boolean } | undefined;
        const reply = payload?.wrong === true ? { sum: 0 } : { total: (payload?.a ?? 0) + (payload?.b ?? 0) };
        updater.addArtifact([{ data: reply }]);
        updater.complete();
      },
    },
  });
  running = await listen(server, { port: 0 });
  return running.url;
}

const contractMessage = (contract: string, payload: unknown) =>
  ({
    messageId: `m-${Math.random()}`,
    role: 'ROLE_USER',
    parts: [{ data: { _a2a: true, contract, payload } }],
  }) as Message;

describe('contract gate', () => {
  it('refuses with InvalidParams on every binding and version', async () => {
    const url = await start('fail');
    for (const driver of allDrivers(url)) {
      const outcome = await driver.send(contractMessage('nope', {}));
      expect(outcome.ok, driver.name).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code, driver.name).toBe(-32602);
      expect(outcome.error.httpStatus, driver.name).toBe(driver.binding === 'JSONRPC' ? 200 : 400);
      expect(outcome.error.message, driver.name).toContain('Available: sum');
    }
  });

  it('hands the invocation to the executor and carries the contract and warnings on the result', async () => {
    const seen: RequestContext[] = [];
    const url = await start('fail', seen);
    for (const driver of allDrivers(url)) {
      const task = taskOf(await driver.send(contractMessage('sum', { a: 2, b: 3 })));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(task.metadata?.['concord/contract'], driver.name).toEqual({
        name: 'sum',
        version: '2.0.0',
        correlationId: 'corr-1',
        warnings: ['This contract is deprecated.', 'Use "sum-v3" instead.'],
      });
      expect(task.artifacts?.[0]?.parts[0], driver.name).toMatchObject({ data: { total: 5 } });
    }
    expect(seen[0]?.contract?.payload).toEqual({ a: 2, b: 3 });
  });

  it('fails the task when the reply misses the output schema', async () => {
    const url = await start('fail');
    const [driver] = allDrivers(url);
    const task = taskOf(await driver!.send(contractMessage('sum', { a: 1, b: 1, wrong: true })));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(JSON.stringify(task.status.message)).toContain('does not satisfy contract \\"sum\\" output');
    expect(task.artifacts ?? []).toEqual([]);
  });

  it('lets the reply through, flagged, under the warn policy', async () => {
    const url = await start('warn');
    const [driver] = allDrivers(url);
    const task = taskOf(await driver!.send(contractMessage('sum', { a: 1, b: 1, wrong: true })));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.metadata?.['concord/contract/outputViolations']).toEqual([
      { path: '/parts/0/total', keyword: 'required', message: 'must have property total' },
    ]);
  });
});

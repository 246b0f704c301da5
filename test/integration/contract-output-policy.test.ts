// Output contracts with a real ContractSet over HTTP (decision 0030): a handler
// whose reply breaks the contract's output schema fails the task under `fail` (the default) and
// is delivered flagged under `warn`, set for the agent or per contract, on every binding and
// version, for artifacts and for direct replies. The host loads the policy from definitions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileContracts, createContractMessage, type ContractSection } from '../../src/contracts/index.js';
import { DefinitionError, loadHost } from '../../src/host/index.js';
import type { Message } from '../../src/protocol/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { createA2AServer } from '../../src/server/index.js';
import { allDrivers, ok, taskOf } from '../helpers/drivers.js';

const OUTPUT = {
  type: 'object',
  properties: { total: { type: 'integer' } },
  required: ['total'],
  additionalProperties: false,
} as const;

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A calculator whose `sum.wrong` and `sum.reply-wrong` contracts answer with a broken reply. */
async function start(
  section: Omit<ContractSection, 'contracts'>,
  policies: Record<string, 'fail' | 'warn'> = {},
) {
  const contract = (name: string) => ({
    input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
    output: OUTPUT,
    ...(policies[name] === undefined ? {} : { outputPolicy: policies[name] }),
  });
  const contracts = compileContracts('calc', {
    ...section,
    contracts: {
      sum: contract('sum'),
      'sum.wrong': contract('sum.wrong'),
      'sum.reply-wrong': contract('sum.reply-wrong'),
    },
  });
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
    contracts,
    executor: {
      execute(context, updater) {
        const { a = 0, b = 0 } = context.contract!.payload as { a?: number; b?: number };
        if (context.contract!.name === 'sum.reply-wrong') {
          updater.reply([{ data: { total: String(a + b) } }]);
          return;
        }
        const reply =
          context.contract!.name === 'sum.wrong' ? { total: a + b, note: 'extra' } : { total: a + b };
        updater.addArtifact([{ data: reply }], { name: 'result' });
        updater.complete();
      },
    },
  });
  running = await listen(server, { port: 0 });
  return allDrivers(running.url);
}

const send = (contract: string): Message => createContractMessage({ name: contract }, { a: 2, b: 3 });

describe('output policy fail (the default)', () => {
  it('fails the task with the violations and drops the broken artifact, on every interface', async () => {
    for (const driver of await start({})) {
      const good = taskOf(await driver.send(send('sum')));
      expect(good.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      const task = taskOf(await driver.send(send('sum.wrong')));
      expect(task.status.state, driver.name).toBe('TASK_STATE_FAILED');
      expect(task.status.message?.parts[0]?.text, driver.name).toBe(
        'The agent\'s reply does not satisfy contract "sum.wrong" output: /parts/0/note: is not allowed (additionalProperties is false)',
      );
      expect(task.artifacts ?? [], driver.name).toEqual([]);
      // Stored that way: a later GetTask sees the same.
      const again = ok(await driver.getTask(task.id));
      expect(again.status.state, driver.name).toBe('TASK_STATE_FAILED');
    }
  });

  it('turns a broken direct reply into a failed task saying why', async () => {
    for (const driver of await start({})) {
      const task = taskOf(await driver.send(send('sum.reply-wrong')));
      expect(task.status.state, driver.name).toBe('TASK_STATE_FAILED');
      expect(task.status.message?.parts[0]?.text, driver.name).toBe(
        'The agent\'s reply does not satisfy contract "sum.reply-wrong" output: /parts/0/total: must be integer, got string "5"',
      );
    }
  });
});

describe('output policy warn', () => {
  it('delivers the reply flagged with its violations when the agent is warn-only', async () => {
    for (const driver of await start({ outputPolicy: 'warn' })) {
      const task = taskOf(await driver.send(send('sum.wrong')));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts?.[0]?.parts[0]?.data, driver.name).toEqual({ total: 5, note: 'extra' });
      expect(task.artifacts?.[0]?.metadata?.['concord/contract/outputViolations'], driver.name).toEqual([
        {
          path: '/parts/0/note',
          keyword: 'additionalProperties',
          message: 'is not allowed (additionalProperties is false)',
        },
      ]);
      const reply = ok(await driver.send(send('sum.reply-wrong')));
      if (!('message' in reply)) throw new Error(`${driver.name}: expected a direct reply`);
      expect(reply.message.metadata?.['concord/contract'], driver.name).toMatchObject({
        name: 'sum.reply-wrong',
        outputViolations: [{ path: '/parts/0/total', keyword: 'type' }],
      });
    }
  });

  it('lets a contract override the agent: warn for one, fail for the rest, and the other way round', async () => {
    const [driver] = await start({}, { 'sum.wrong': 'warn' });
    expect(taskOf(await driver!.send(send('sum.wrong'))).status.state).toBe('TASK_STATE_COMPLETED');
    expect(taskOf(await driver!.send(send('sum.reply-wrong'))).status.state).toBe('TASK_STATE_FAILED');
    await running?.close();

    const [strict] = await start({ outputPolicy: 'warn' }, { 'sum.wrong': 'fail' });
    expect(taskOf(await strict!.send(send('sum.wrong'))).status.state).toBe('TASK_STATE_FAILED');
    expect('message' in ok(await strict!.send(send('sum.reply-wrong')))).toBe(true);
  });
});

describe('output policy in definitions', () => {
  it('loads a2a.outputPolicy and per-contract outputPolicy, and refuses other values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-policy-'));
    try {
      writeFileSync(join(dir, 'handler.mjs'), 'export const executor = { execute() {} };\n');
      const write = (a2a: unknown) =>
        writeFileSync(
          join(dir, 'concord.config.json5'),
          JSON.stringify({ agents: { list: [{ id: 'calc', handler: './handler.mjs', a2a }] } }, null, 2),
        );
      write({ outputPolicy: 'warn', contracts: { sum: { output: OUTPUT, outputPolicy: 'fail' } } });
      const config = await loadHost(dir);
      expect(config.agents[0]!.a2a).toMatchObject({
        outputPolicy: 'warn',
        contracts: { sum: { outputPolicy: 'fail' } },
      });
      const set = compileContracts('calc', config.agents[0]!.a2a);
      expect([set.outputPolicy, set.outputPolicyOf('sum')]).toEqual(['warn', 'fail']);

      write({ outputPolicy: 'ignore', contracts: { sum: { outputPolicy: 'quiet' } } });
      const error = await loadHost(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DefinitionError);
      const text = (error as Error).message;
      expect(text).toContain('/agents/list/0/a2a/outputPolicy');
      expect(text).toContain('/agents/list/0/a2a/contracts/sum/outputPolicy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad policy given to compileContracts directly, at its field', () => {
    expect(() =>
      compileContracts('calc', {
        outputPolicy: 'loud' as 'warn',
        contracts: { sum: { outputPolicy: 'x' as 'fail' } },
      }),
    ).toThrow(
      'Agent "calc" declares invalid contracts: /outputPolicy: must be "fail" or "warn", got "loud"; /contracts/sum/outputPolicy: must be "fail" or "warn", got "x"',
    );
  });
});

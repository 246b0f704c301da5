/**
 * Code agents: handler modules written to real files, loaded by `loadHandlerExecutor`, then served
 * by an A2A server on a real socket and called over JSON-RPC 1.0.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../../src/card/index.js';
import { HandlerLoadError, loadHandlerExecutor } from '../../../src/host/executors/index.js';
import { listen } from '../../../src/server/adapters/node.js';
import { createA2AServer, type AgentExecutor } from '../../../src/server/index.js';

const dir = mkdtempSync(join(tmpdir(), 'concord-handlers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function handlerFile(name: string, source: string): string {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

function definition(handler: string | undefined): AgentDefinition {
  return {
    id: 'coder',
    name: 'Coder',
    description: 'Runs code',
    version: '1.0.0',
    exposed: true,
    systemPrompt: '',
    tags: [],
    skills: [],
    a2a: { allowFreeform: true, contracts: {} },
    card: {},
    source: { file: join(dir, 'coder.md'), line: 3 },
    ...(handler === undefined ? {} : { handler }),
  };
}

/** Serves the executor and sends one message; returns the answering task's artifact text. */
async function roundTrip(
  executor: AgentExecutor,
  text: string,
): Promise<{ state: string; artifact: string }> {
  const server = createA2AServer({
    agentCard: {
      name: 'Coder',
      description: 'Runs code',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'run', name: 'Run', description: 'Runs', tags: ['code'] }],
    },
    executor,
  });
  const running = await listen(server, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => running.close());
  const response = await fetch(running.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  const json = (await response.json()) as {
    result: { task: { status: { state: string }; artifacts?: { parts: { text: string }[] }[] } };
  };
  const task = json.result.task;
  return { state: task.status.state, artifact: task.artifacts?.[0]?.parts[0]?.text ?? '' };
}

const BODY = `(context, updater) => {
  updater.addArtifact([{ text: 'SHAPE:' + context.message.parts[0].text }]);
  updater.complete();
}`;

describe('loadHandlerExecutor', () => {
  it('loads a named `executor` export (.mjs)', async () => {
    const file = handlerFile(
      'named.mjs',
      `export const executor = { execute: ${BODY.replace('SHAPE', 'named')} };`,
    );
    const executor = await loadHandlerExecutor(definition(file));
    expect(await roundTrip(executor, 'hi')).toEqual({ state: 'TASK_STATE_COMPLETED', artifact: 'named:hi' });
  });

  it('loads a default-exported executor object (.js in an ESM scope) that uses `this`', async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const file = handlerFile(
      'default-object.js',
      `export default {
        prefix: 'object:',
        execute(context, updater) {
          updater.addArtifact([{ text: this.prefix + context.message.parts[0].text }]);
          updater.complete();
        },
        cancel(context, updater) { updater.cancel(); },
      };`,
    );
    const executor = await loadHandlerExecutor(definition(file));
    expect(typeof executor.cancel).toBe('function');
    expect(await roundTrip(executor, 'yo')).toEqual({ state: 'TASK_STATE_COMPLETED', artifact: 'object:yo' });
  });

  it('wraps a default-exported function', async () => {
    const file = handlerFile('default-function.mjs', `export default ${BODY.replace('SHAPE', 'function')};`);
    const executor = await loadHandlerExecutor(definition(file));
    expect(await roundTrip(executor, 'ok')).toEqual({
      state: 'TASK_STATE_COMPLETED',
      artifact: 'function:ok',
    });
  });

  it('loads the echo example as written', async () => {
    const file = join(import.meta.dirname, '../../../examples/echo/agent.mjs');
    const executor = await loadHandlerExecutor(definition(file));
    expect(await roundTrip(executor, 'ping')).toEqual({
      state: 'TASK_STATE_COMPLETED',
      artifact: 'echo: ping',
    });
  });

  it('names the file and the accepted shapes when no executor is exported', async () => {
    const file = handlerFile('nothing.mjs', 'export const agentCard = {};');
    const error = await loadHandlerExecutor(definition(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandlerLoadError);
    expect((error as HandlerLoadError).file).toBe(file);
    expect((error as Error).message).toContain(`Handler ${file} exports no executor`);
    expect((error as Error).message).toMatch(/export `executor`.*export default/);
  });

  it('says what is wrong with an executor without execute, and with a default class', async () => {
    const noExecute = handlerFile('no-execute.mjs', 'export const executor = { run() {} };');
    await expect(loadHandlerExecutor(definition(noExecute))).rejects.toThrow(
      `Handler ${noExecute}: export \`executor\` has no execute(context, updater) method`,
    );
    const aClass = handlerFile('class.mjs', 'export default class Agent { execute() {} }');
    await expect(loadHandlerExecutor(definition(aClass))).rejects.toThrow(/default export is a class/);
  });

  it('reports TypeScript handlers this Node cannot import', async () => {
    const file = handlerFile(
      'typed.ts',
      `export const executor = { execute: ${BODY.replace('SHAPE', 'typed')} };`,
    );
    const features = process.features as { typescript?: unknown };
    if (features.typescript === undefined || features.typescript === false) {
      const error = await loadHandlerExecutor(definition(file)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HandlerLoadError);
      expect((error as Error).message).toContain(`Handler ${file}`);
      expect((error as Error).message).toMatch(/compile it to \.js.*--experimental-strip-types/);
    } else {
      // A Node that strips types imports the file itself.
      const executor = await loadHandlerExecutor(definition(file));
      expect((await roundTrip(executor, 'ts')).artifact).toBe('typed:ts');
    }
  });

  it('reports a missing file, a wrong extension, a broken module and a missing handler', async () => {
    const missing = join(dir, 'missing.mjs');
    await expect(loadHandlerExecutor(definition(missing))).rejects.toThrow(
      `Handler ${missing} of agent "coder" (${join(dir, 'coder.md')}:3) does not exist`,
    );
    const json = handlerFile('agent.json', '{}');
    await expect(loadHandlerExecutor(definition(json))).rejects.toThrow(
      /must be a \.js, \.mjs or \.cjs module/,
    );
    const broken = handlerFile('broken.mjs', 'export const executor = {');
    await expect(loadHandlerExecutor(definition(broken))).rejects.toThrow(
      `Handler ${broken} failed to load:`,
    );
    await expect(loadHandlerExecutor(definition(undefined))).rejects.toThrow(
      /Agent "coder" .* has no `handler`/,
    );
  });

  it('imports a changed module again (dev mode), and reuses an unchanged one', async () => {
    const source = (tag: string): string =>
      `let calls = 0;\nexport default (context, updater) => {\n` +
      `  calls++;\n  updater.addArtifact([{ text: '${tag}' + calls }]);\n  updater.complete();\n};\n`;
    const file = handlerFile('reloaded.mjs', source('a'));
    const first = await loadHandlerExecutor(definition(file));
    expect((await roundTrip(first, 'x')).artifact).toBe('a1');
    // Unchanged: the same module instance, so its state carries on.
    const same = await loadHandlerExecutor(definition(file));
    expect((await roundTrip(same, 'x')).artifact).toBe('a2');
    writeFileSync(file, source('b'));
    const changed = await loadHandlerExecutor(definition(file));
    expect((await roundTrip(changed, 'x')).artifact).toBe('b1');
  });

  it('imports a changed CommonJS module again', async () => {
    const source = (tag: string): string =>
      `exports.executor = { execute(context, updater) {\n` +
      `  updater.addArtifact([{ text: '${tag}' }]);\n  updater.complete();\n} };\n`;
    const file = handlerFile('reloaded.cjs', source('cjs-1'));
    expect((await roundTrip(await loadHandlerExecutor(definition(file)), 'x')).artifact).toBe('cjs-1');
    writeFileSync(file, source('cjs-2'));
    expect((await roundTrip(await loadHandlerExecutor(definition(file)), 'x')).artifact).toBe('cjs-2');
  });
});

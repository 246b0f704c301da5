// Extensions in the agent host (HostExtension, decision 0054): an agent definition enables one by
// name; the host mounts it with the agent's store and paths relative to the definition, serves it
// (card declaration, admission, documents, the executor's service), and refuses to start — naming
// file, line and field — for an unknown extension or settings the extension rejects.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostExtension, type RunningHost } from '../../src/host/index.js';
import { A2AError } from '../../src/protocol/index.js';
import { ExtensionConfigError } from '../../src/server/index.js';

const URI = 'https://example.com/ext/greeting/v1';
let dir: string | undefined;
let host: RunningHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const HANDLER = `export default (context, updater) => {
  const greeting = context.extensions.get('${URI}');
  updater.complete(greeting === undefined ? 'no greeting' : greeting.say(context.message.parts[0].text));
};`;

const CALLER = `export default async (context, updater) => {
  const target = context.message.parts[0].text;
  const message = { messageId: 'm-' + Math.random(), role: 'ROLE_USER', parts: [{ text: 'Grace' }], extensions: ['${URI}'] };
  const response = await context.agents.send(target, message);
  updater.complete(response.task.status.message.parts[0].text);
};`;

function writeHost(extensions: unknown): string {
  dir = mkdtempSync(join(tmpdir(), 'concord-host-ext-'));
  writeFileSync(join(dir, 'agent.mjs'), HANDLER);
  writeFileSync(join(dir, 'caller.mjs'), CALLER);
  writeFileSync(join(dir, 'words.txt'), 'Hello');
  const greeter = { id: 'greeter', description: 'Greets', exposed: true, handler: './agent.mjs', extensions };
  const caller = { id: 'caller', description: 'Calls the greeter', handler: './caller.mjs' };
  writeFileSync(
    join(dir, 'concord.config.json5'),
    JSON.stringify(
      { outbound: { allowedHosts: ['127.0.0.1'] }, agents: { list: [greeter, caller] } },
      null,
      2,
    ),
  );
  return dir;
}

const activations: boolean[] = [];
const seen: { file: string; storeHasEvidence: boolean }[] = [];
const greeting: HostExtension = {
  name: 'greeting',
  mount(config, agent) {
    const word = (config as { word?: unknown }).word;
    if (typeof word !== 'string') throw new ExtensionConfigError('/word', 'must be a file name');
    seen.push({ file: agent.resolvePath(word), storeHasEvidence: agent.store.evidence !== undefined });
    return {
      declaration: { uri: URI, description: 'greets' },
      admit: ({ request, activated }) => {
        activations.push(activated);
        if (request.message.parts[0]?.text === 'nobody')
          throw new A2AError('InvalidParamsError', 'greeting: nobody to greet');
      },
      documents: { '/.well-known/greeting': () => `greetings from ${agent.definition.id}` },
      service: { say: (name: string) => `Hello, ${name}` },
    };
  },
};

async function send(url: string, text: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: text, role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  return (await response.json()) as {
    result?: { task: { status: { message: { parts: { text: string }[] } } } };
    error?: { message: string };
  };
}

describe('host extensions', () => {
  it('mounts an extension an agent enables, with its store and paths relative to the definition', async () => {
    const root = writeHost({ greeting: { word: 'words.txt' } });
    host = await startHost(root, { port: 0, dataDir: join(root, 'data'), extensions: [greeting] });
    expect(seen.at(-1)).toEqual({ file: join(root, 'words.txt'), storeHasEvidence: true });
    const agent = `${host.url}agents/greeter/`;
    const card = (await (await fetch(`${agent}.well-known/agent-card.json`)).json()) as {
      capabilities: { extensions: { uri: string }[] };
    };
    expect(card.capabilities.extensions.map((e) => e.uri)).toEqual([URI]);
    expect(await (await fetch(`${agent}.well-known/greeting`)).json()).toBe('greetings from greeter');
    // The lone public agent is served at the root too, with its extension.
    expect(await (await fetch(`${host.url}.well-known/greeting`)).json()).toBe('greetings from greeter');
    expect((await send(agent, 'Ada')).result?.task.status.message.parts[0]?.text).toBe('Hello, Ada');
    expect((await send(agent, 'nobody')).error?.message).toBe('greeting: nobody to greet');
    expect(activations.splice(0)).toEqual([false, false]);
  });

  it('activates the extensions a message lists when an agent sends it, in process or by URL', async () => {
    const root = writeHost({ greeting: { word: 'words.txt' } });
    host = await startHost(root, { port: 0, internalPort: 0, store: 'memory', extensions: [greeting] });
    const caller = `${host.internalUrl}agents/caller/`;
    activations.splice(0);
    expect((await send(caller, 'greeter')).result?.task.status.message.parts[0]?.text).toBe('Hello, Grace');
    expect(
      (await send(caller, `${host.url}agents/greeter/`)).result?.task.status.message.parts[0]?.text,
    ).toBe('Hello, Grace');
    // Both sends activated it: the caller's own message (plain text, no extension) did not.
    expect(activations).toEqual([true, true]);
  });

  it('refuses to start for an extension the host does not have, naming file, line and field', async () => {
    const root = writeHost({ greeting: { word: 'x' } });
    const error = (await startHost(root, { port: 0, store: 'memory' }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`${join(root, 'concord.config.json5')}:`);
    expect(error.message).toContain(
      '/agents/list/0/extensions/greeting: agent "greeter" enables extension "greeting", which this host does not have (it has: none)',
    );
  });

  it('refuses to start for settings the extension rejects, at the setting', async () => {
    const root = writeHost({ greeting: { word: 42 } });
    const error = (await startHost(root, { port: 0, store: 'memory', extensions: [greeting] }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toContain('/agents/list/0/extensions/greeting/word: must be a file name');
  });

  it('refuses extension names and settings the definition schema does not allow', async () => {
    const root = writeHost({ Greeting: 'loud' });
    const error = (await startHost(root, { port: 0, store: 'memory', extensions: [greeting] }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toContain('/agents/list/0/extensions');
  });
});

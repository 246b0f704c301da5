/**
 * Discovery through the host's AI Catalog (decision 0167; A2A pull request #2240): a real
 * `concord serve` hosting three agents, one open, one that requires an API key and one unexposed.
 * The catalog at `/.well-known/ai-catalog.json` lists what each caller may reach (the unexposed
 * agent only for a key with the internal scope), privately cached per credential; `concord
 * discover` shows it, and `concord send --agent <id>` and `A2AClient.connect(origin, { agent })`
 * call each agent through the origin alone. The directory card keeps working beside it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, apiKey, CardCache, discoverAgents } from '../../src/client/index.js';
import { startHost } from '../../src/host/index.js';
import { concord, ndjson } from './cli-process.js';
import { serve, type Served } from './serve-helpers.js';

const INTERNAL_KEY = 'catalog-internal-key-5e1d9a7c';
const PLAIN_KEY = 'catalog-plain-key-0b4f62aa';
const dir = mkdtempSync(join(tmpdir(), 'concord-catalog-'));
let served: Served;

const agentFile = (name: string, extra: string) =>
  `---\nname: ${name}\ndescription: The ${name} agent.\nversion: 2.1.0\nhandler: ./handlers/${name}.mjs\ntags: [${name}, demo]\n${extra}---\n`;

beforeAll(async () => {
  mkdirSync(join(dir, 'handlers'));
  writeFileSync(
    join(dir, 'concord.config.json5'),
    `{
  organization: { name: 'Catalog Test Org', url: 'https://example.org' },
  security: {
    schemes: {
      key: {
        type: 'apiKey', in: 'header', name: 'X-API-Key',
        keys: [
          { key: { env: 'CATALOG_INTERNAL_KEY' }, principal: 'ops', scopes: ['agents:internal'] },
          { key: { env: 'CATALOG_PLAIN_KEY' }, principal: 'user', scopes: [] },
        ],
      },
    },
    requirements: [],
  },
}
`,
  );
  writeFileSync(join(dir, 'open.md'), agentFile('open', 'exposed: true\n'));
  writeFileSync(join(dir, 'secure.md'), agentFile('secure', 'exposed: true\nsecurity:\n  - key: []\n'));
  writeFileSync(join(dir, 'hidden.md'), agentFile('hidden', 'exposed: false\n'));
  for (const name of ['open', 'secure', 'hidden']) {
    writeFileSync(
      join(dir, 'handlers', `${name}.mjs`),
      `export default (context, updater) => updater.reply('${name} heard ' + context.message.parts[0].text);\n`,
    );
  }
  served = await serve([dir, '--port', '0', '--store', 'memory'], {
    CATALOG_INTERNAL_KEY: INTERNAL_KEY,
    CATALOG_PLAIN_KEY: PLAIN_KEY,
  });
});

afterAll(async () => {
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface CatalogDoc {
  specVersion: string;
  host: { displayName: string; identifier: string };
  entries: { identifier: string; type: string; url: string; displayName: string; tags: string[] }[];
}

async function catalog(
  headers: Record<string, string> = {},
): Promise<{ response: Response; doc: CatalogDoc }> {
  const response = await fetch(`${served.url}.well-known/ai-catalog.json`, { headers });
  return { response, doc: (await response.json()) as CatalogDoc };
}

describe('the host AI Catalog', () => {
  it('lists the agents each caller may reach, with their card URLs, private to the credentials', async () => {
    const anonymous = await catalog();
    expect(anonymous.response.status).toBe(200);
    expect(anonymous.response.headers.get('content-type')).toBe('application/ai-catalog+json');
    expect(anonymous.response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(anonymous.response.headers.get('vary')).toBe('Authorization, X-API-Key');
    const host = new URL(served.url).hostname;
    expect(anonymous.doc).toMatchObject({
      specVersion: '1.0',
      host: { displayName: 'Catalog Test Org', identifier: host },
    });
    expect(anonymous.doc.entries).toEqual([
      {
        identifier: `urn:air:${host}:a2a:open`,
        type: 'application/a2a-agent-card+json',
        url: `${served.url}agents/open/.well-known/agent-card.json`,
        displayName: 'open',
        description: 'The open agent.',
        version: '2.1.0',
        tags: ['open', 'demo'],
      },
      expect.objectContaining({ identifier: `urn:air:${host}:a2a:secure` }),
    ]);
    // Every card URL answers with the card of the agent it names.
    for (const entry of anonymous.doc.entries) {
      const card = (await (await fetch(entry.url)).json()) as { name: string; version: string };
      expect(card).toMatchObject({ name: entry.displayName, version: '2.1.0' });
    }
    // A key without the internal scope sees the same; one with it also the unexposed agent.
    expect((await catalog({ 'x-api-key': PLAIN_KEY })).doc.entries.map((e) => e.displayName)).toEqual([
      'open',
      'secure',
    ]);
    expect((await catalog({ 'x-api-key': INTERNAL_KEY })).doc.entries.map((e) => e.displayName)).toEqual([
      'hidden',
      'open',
      'secure',
    ]);
    // A wrong key is an anonymous caller here: the catalog is discovery, not a door.
    expect((await catalog({ 'x-api-key': 'not-a-key' })).doc.entries).toHaveLength(2);
  });

  it('keeps the directory card at the root working beside it', async () => {
    const response = await fetch(`${served.url}.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as { skills: { id: string }[] };
    expect(card.skills.map((s) => s.id)).toEqual(['open', 'secure']);
  });
});

describe('concord discover and --agent', () => {
  it('discovers what the credentials allow, in text and JSON Lines', async () => {
    const anonymous = await concord(['discover', served.url, '--json']);
    expect(anonymous.stderr).toBe('');
    expect(anonymous.code).toBe(0);
    expect(ndjson(anonymous.stdout).map((a) => [a.id, a.cardUrl])).toEqual([
      ['open', `${served.url}agents/open/.well-known/agent-card.json`],
      ['secure', `${served.url}agents/secure/.well-known/agent-card.json`],
    ]);
    const internal = await concord(['discover', served.url, '--api-key', INTERNAL_KEY, '--json']);
    expect(internal.code).toBe(0);
    expect(ndjson(internal.stdout).map((a) => a.id)).toEqual(['hidden', 'open', 'secure']);
    // The key went to the catalog, never to the output.
    expect(internal.stdout + internal.stderr).not.toContain(INTERNAL_KEY);
    const text = await concord(['discover', served.url]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Agents: 2\n');
    expect(text.stdout).toContain(
      'Id: secure\nName: secure\nDescription: The secure agent.\nVersion: 2.1.0\n',
    );
  });

  it('calls each agent through the origin alone', async () => {
    const open = await concord(['send', served.url, '--agent', 'open', 'hello']);
    expect(open.code).toBe(0);
    expect(open.stdout).toContain('open heard hello');
    // The secured agent: refused without its key, answered with it.
    const refused = await concord(['send', served.url, '--agent', 'secure', 'hello']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/401|[Uu]nauthenticated|credentials/);
    const secure = await concord(['send', served.url, '--agent', 'secure', '--api-key', PLAIN_KEY, 'hello']);
    expect(secure.code).toBe(0);
    expect(secure.stdout).toContain('secure heard hello');
    // The unexposed agent does not exist for an anonymous caller, and does for the internal key.
    const unseen = await concord(['send', served.url, '--agent', 'hidden', 'hello']);
    expect(unseen.code).not.toBe(0);
    expect(unseen.stderr).toContain('No agent "hidden" in the AI Catalog');
    expect(unseen.stderr).toContain('it lists open (open), secure (secure)');
    const hidden = await concord([
      'send',
      served.url,
      '--agent',
      'hidden',
      '--api-key',
      INTERNAL_KEY,
      'hello',
    ]);
    expect(hidden.code).toBe(0);
    expect(hidden.stdout).toContain('hidden heard hello');
  });
});

describe('the client API', () => {
  const network = { allowedHosts: ['127.0.0.1', 'localhost'] };

  it('discovers and connects by agent name through the catalog', async () => {
    const seen = await discoverAgents(served.url, network);
    expect(seen.agents.map((a) => a.id)).toEqual(['open', 'secure']);
    expect(seen.skipped).toEqual([]);
    const client = await A2AClient.connect(served.url, {
      ...network,
      cardCache: new CardCache(),
      agent: 'hidden',
      auth: apiKey({ in: 'header', name: 'X-API-Key', value: INTERNAL_KEY }),
    });
    try {
      expect(client.card.name).toBe('hidden');
      expect(client.resolvedCard?.url).toBe(`${served.url}agents/hidden/.well-known/agent-card.json`);
      const answer = await client.sendMessage({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'from the API' }] },
      });
      const reply = 'task' in answer ? answer.task.history?.at(-1) : answer.message;
      expect(reply?.parts[0]).toEqual({ text: 'hidden heard from the API' });
    } finally {
      client.close();
    }
  });
});

describe('aiCatalog: false', () => {
  it('serves no catalog, and the directory card as before', async () => {
    const off = mkdtempSync(join(tmpdir(), 'concord-catalog-off-'));
    writeFileSync(join(off, 'concord.config.json5'), '{ aiCatalog: false }');
    writeFileSync(join(off, 'reply.mjs'), "export default (context, updater) => updater.reply('hi');\n");
    for (const name of ['one', 'two']) {
      writeFileSync(
        join(off, `${name}.md`),
        `---\nname: ${name}\nexposed: true\ndescription: A.\nhandler: ./reply.mjs\n---\n`,
      );
    }
    const running = await startHost(off, { port: 0, store: 'memory' });
    try {
      expect((await fetch(`${running.url}.well-known/ai-catalog.json`)).status).toBe(404);
      expect((await fetch(`${running.url}.well-known/agent-card.json`)).status).toBe(200);
      const run = await concord(['discover', running.url]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('No AI Catalog at');
    } finally {
      await running.close();
      rmSync(off, { recursive: true, force: true });
    }
  });
});

/**
 * `loadHost(target, { purpose: 'describe' })` (decision 0150): definitions read for a card or a
 * contracts audit need no runnable agent (no `model` or `handler`, MCP servers defined elsewhere),
 * while serving still requires both; every other check is the same.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefinitionError, loadHost } from '../../../src/host/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-describe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const folder = mkdtempSync(join(dir, 'defs-'));
  writeFileSync(join(folder, name), text);
  return folder;
}

async function problemsOf(target: string, purpose?: 'serve' | 'describe'): Promise<string[]> {
  try {
    await loadHost(target, purpose === undefined ? {} : { purpose });
    return [];
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return error.problems.map((p) => `${p.field}: ${p.message}`);
  }
}

const SEED_CONFIG = `{ agents: { list: [
  { id: "coordinator" },
  { id: "researcher", a2a: { contracts: { "research.query": { deprecated: true } } } },
] } }`;

const PROCESS_ORDER = `---
name: ProcessOrder
description: Processes incoming orders from external partners
model: gpt-4-turbo
mcpServers:
  order-db:
    - "create_order"
---

You are an order processing specialist...
`;

describe('loading to describe, not to serve', () => {
  it('accepts agents that name neither a model nor a handler; serving refuses them', async () => {
    const folder = write('concord.config.json5', SEED_CONFIG);
    expect(await problemsOf(folder)).toEqual([
      '/agents/list/0: must be a model agent (with `model`) or a code agent (with `handler`)',
      '/agents/list/1: must be a model agent (with `model`) or a code agent (with `handler`)',
    ]);
    const described = await loadHost(folder, { purpose: 'describe' });
    expect(described.agents.map((a) => a.id)).toEqual(['coordinator', 'researcher']);
    expect(described.agents[1]?.a2a.contracts).toEqual({ 'research.query': { deprecated: true } });
  });

  it('accepts MCP servers no host config defines; serving refuses them', async () => {
    const folder = write('process-order.md', PROCESS_ORDER);
    expect(await problemsOf(folder, 'serve')).toEqual([
      '/mcpServers/order-db: MCP server "order-db" is not defined: there is no host config; define it in concord.config.json5 under mcpServers, or give it inline as {command, args, tools}',
    ]);
    const described = await loadHost(folder, { purpose: 'describe' });
    expect(described.agents[0]?.mcpServers?.map((m) => m.server)).toEqual(['order-db']);
  });

  it('still refuses what is wrong whatever the purpose', async () => {
    const both = write('both.md', '---\nname: both\nmodel: m\nhandler: ./h.mjs\n---\n');
    expect(await problemsOf(both, 'describe')).toContain(
      ': must be only one of: a model agent (with `model`), a code agent (with `handler`)',
    );
    const codeWithMcp = write(
      'concord.config.json5',
      '{ agents: [{ id: "a", handler: "./h.mjs", mcpServers: { db: ["q"] } }] }',
    );
    writeFileSync(join(codeWithMcp, 'h.mjs'), 'export const executor = {};\n');
    const problems = await problemsOf(codeWithMcp, 'describe');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\/agents\/0\/mcpServers: only model agents use MCP servers/);
  });
});

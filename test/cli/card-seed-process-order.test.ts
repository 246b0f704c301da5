/**
 * `concord card <folder>` on the seed's ProcessOrder file alone (Shaman's agent-card.md "Example
 * agent YAML that generates an AgentCard"), through the built CLI. The file names an
 * MCP server (`order-db`) that no host config defines here: generating a card needs no MCP server,
 * so the card is printed, and nothing is connected to or launched.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concord } from './cli-process.js';

/** The seed's example agent file, as written there. */
const SEED_PROCESS_ORDER = `---
name: ProcessOrder
exposed: true
description: Processes incoming orders from external partners
model: gpt-4-turbo
temperature: 0.7
tags: ["order", "processing", "inventory"]
mcpServers:
  order-db:
    - "create_order"
    - "validate_inventory"
---

You are an order processing specialist...
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-card-seed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(dir, 'agents-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

describe("concord card on the seed's ProcessOrder file", () => {
  it('prints and lints its card, in 1.0 and 0.3', async () => {
    const folder = folderWith({ 'process-order.md': SEED_PROCESS_ORDER });
    const v1 = await concord(['card', folder]);
    expect(v1.stderr).toContain('(ProcessOrder): card is valid A2A 1.0');
    expect(v1.code).toBe(0);
    expect(JSON.parse(v1.stdout)).toMatchObject({
      name: 'ProcessOrder',
      description: 'Processes incoming orders from external partners',
      version: '1.0.0',
      supportedInterfaces: expect.arrayContaining([
        expect.objectContaining({ url: 'http://localhost:4000/agents/ProcessOrder' }),
      ]),
    });
    const v03 = await concord(['card', folder, '--card-version', '0.3']);
    expect(v03.stderr).toContain('(ProcessOrder): card is valid A2A 0.3');
    expect(v03.code).toBe(0);
    expect(JSON.parse(v03.stdout)).toMatchObject({ name: 'ProcessOrder', protocolVersion: '0.3.0' });
  });

  it('neither connects to nor launches the MCP servers the file names', async () => {
    const marker = join(dir, 'launched');
    const launcher = join(dir, 'launch-marker.mjs');
    writeFileSync(
      launcher,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\n`,
    );
    const withLaunch = SEED_PROCESS_ORDER.replace(
      '---\n\nYou are',
      `  inventory:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(launcher)}]\n    tools: ["check_stock"]\n---\n\nYou are`,
    );
    const folder = folderWith({ 'process-order.md': withLaunch });
    const run = await concord(['card', folder]);
    expect(run.stderr).toContain('(ProcessOrder): card is valid A2A 1.0');
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("concord card on the contracts seed's agents", () => {
  // The seed's agents name no model or handler; a card needs a description (A2A), so one is added.
  it('prints the card of an agent that names neither a model nor a handler', async () => {
    const config = join(dir, 'seed.json5');
    writeFileSync(
      config,
      `{
  agents: {
    list: [
      { id: "coordinator" },
      {
        id: "reviewer",
        description: "Reviews research findings",
        a2a: {
          contracts: {
            "review.findings": {
              description: "Review and validate research findings",
              input: { type: "object", properties: { findings: { type: "string" } }, required: ["findings"] },
            },
          },
        },
      },
    ],
  },
}
`,
    );
    const run = await concord(['card', config, '--agent', 'reviewer']);
    expect(run.stderr).toContain('(reviewer): card is valid A2A 1.0');
    expect(run.code).toBe(0);
    const card = JSON.parse(run.stdout) as { skills: { id: string }[] };
    expect(card.skills.map((s) => s.id)).toContain('review.findings');
  });
});

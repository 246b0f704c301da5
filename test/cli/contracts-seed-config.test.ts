/**
 * `concord contracts list|deprecated` on the contracts seed's own config, through the
 * built CLI: the seed's agents have no `handler` or `model`, and an audit needs no runnable
 * agent. Both config shapes are read (`agents: { list }` and `agents: [...]`); any other shape is
 * refused with its file, line and JSON Pointer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concord } from './cli-process.js';

/** OpenClaw PR #19293 a2a-contracts.md: the pipeline's agents, the researcher with the versioning example. */
const SEED_AGENTS = `[
      {
        id: "coordinator",
        // Coordinator sends structured requests to specialized agents
      },
      {
        id: "researcher",
        a2a: {
          allowFreeform: false, // Only accept structured requests
          contracts: {
            // New version
            "research.query-v2": {
              version: "2.0.0",
              description: "Submit a research query (v2 — adds maxSources)",
              input: {
                type: "object",
                properties: {
                  topic: { type: "string" },
                  maxSources: { type: "integer" },
                },
                required: ["topic"],
              },
            },

            // Old version — still works but emits warnings
            "research.query": {
              version: "1.0.0",
              deprecated: true,
              deprecatedMessage: "Use research.query-v2 for improved source control",
              supersededBy: "research.query-v2",
              description: "Submit a research query",
              input: {
                type: "object",
                properties: { topic: { type: "string" } },
                required: ["topic"],
              },
            },
          },
        },
      },
      {
        id: "reviewer",
        a2a: {
          contracts: {
            "review.findings": {
              description: "Review and validate research findings",
              input: {
                type: "object",
                properties: {
                  findings: { type: "string" },
                  sources: { type: "array", items: { type: "string" } },
                },
                required: ["findings"],
              },
            },
          },
        },
      },
    ]`;

const LISTED = [
  'researcher  research.query-v2 (v2.0.0)  Submit a research query (v2 — adds maxSources)',
  'researcher  research.query (v1.0.0, deprecated -> research.query-v2)  Submit a research query',
  'reviewer  review.findings  Review and validate research findings',
];
const DEPRECATED =
  'researcher  research.query@1.0.0 -> research.query-v2  Use research.query-v2 for improved source control';

let dir: string;
const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-contracts-seed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("concord contracts on the seed's config", () => {
  it('lists every contract of { agents: { list: [...] } }, agents without handler or model included', async () => {
    const config = write('seed.json5', `{\n  agents: {\n    list: ${SEED_AGENTS},\n  },\n}\n`);
    const run = await concord(['contracts', 'list', config]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(LISTED);
    expect(run.code).toBe(0);
  });

  it('audits its deprecated contracts', async () => {
    const config = write('seed.json5', `{\n  agents: {\n    list: ${SEED_AGENTS},\n  },\n}\n`);
    const run = await concord(['contracts', 'deprecated', config]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(DEPRECATED);
    expect(run.code).toBe(0);
  });

  it('reads the same agents written as a bare list, { agents: [...] }', async () => {
    const config = write('bare.json5', `{\n  agents: ${SEED_AGENTS},\n}\n`);
    const listed = await concord(['contracts', 'list', config]);
    expect(listed.stdout.trim().split('\n')).toEqual(LISTED);
    expect(listed.code).toBe(0);
    const deprecated = await concord(['contracts', 'deprecated', config]);
    expect(deprecated.stdout.trim()).toBe(DEPRECATED);
    expect(deprecated.code).toBe(0);
  });

  it('audits a markdown agent that declares contracts and nothing to run', async () => {
    const folder = mkdtempSync(join(dir, 'md-'));
    writeFileSync(
      join(folder, 'researcher.md'),
      [
        '---',
        'name: researcher',
        'a2a:',
        '  contracts:',
        '    research.query:',
        '      deprecated: true',
        '      input: { type: object, properties: { topic: { type: string } }, required: [topic] }',
        '---',
        '',
        'You research.',
        '',
      ].join('\n'),
    );
    const run = await concord(['contracts', 'deprecated', folder]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('researcher  research.query  This contract is deprecated.');
    expect(run.code).toBe(0);
  });

  it('refuses agents of any other shape, naming the file, line and pointer', async () => {
    const config = write('wrong.json5', '{\n  agents: "researcher",\n}\n');
    const run = await concord(['contracts', 'deprecated', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${config}:2: /agents: must be a list of agents or an object {list, dir}`);
  });
});

// A contract name repeated in the seed's map form (decision 0016: "a contract name that is not
// unique is a load error"): JSON would keep the last one silently, so the host's loader reports
// the repeat at its line in the JSON5 config, and nothing is served.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DefinitionError, loadHost, startHost } from '../../src/host/index.js';

const CONFIG = `{
  agents: {
    list: [
      {
        id: 'research-bot',
        handler: './handler.mjs',
        a2a: {
          contracts: {
            'research.request': { input: { type: 'object', required: ['query'] } },
            'research.summary': { description: 'Summarise' },
            'research.request': { input: { type: 'object', required: ['topic'] } },
          },
        },
      },
    ],
  },
}
`;

describe('a repeated contract name in a JSON5 config', () => {
  it('is a load error at the line of the repeat, and the host does not start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-repeat-'));
    try {
      writeFileSync(join(dir, 'handler.mjs'), 'export const executor = { execute() {} };\n');
      const file = join(dir, 'concord.config.json5');
      writeFileSync(file, CONFIG);
      const error = await loadHost(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).problems).toEqual([
        expect.objectContaining({
          file,
          line: 11,
          field: '/agents/list/0/a2a/contracts/research.request',
          message: 'duplicate key (JSON5 would keep only the last one)',
        }),
      ]);
      await expect(startHost(dir, { port: 0, store: 'memory' })).rejects.toBeInstanceOf(DefinitionError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The `concord/boundaries` ESLint rule (eslint.config.js) reports what test/architecture.test.ts
 * reports, where an editor shows it: the same planted imports, linted as files under src/.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The boundary messages ESLint gives `text` as if it were the file `path` under src/. */
async function boundaryMessages(path: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: resolve(ROOT, 'src', path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'concord/boundaries')
    .map((m) => `${m.line}: ${m.message}`);
}

describe('the boundaries lint rule', () => {
  it('reports node:http in protocol/ and one extension reaching into another', async () => {
    expect(await boundaryMessages('protocol/planted.ts', "import 'node:http';\n")).toEqual([
      '1: node:http: protocol/ is pure and imports only node:url in protocol/grpc/proto-files.ts',
    ]);
    const reaching = "export { x } from '../aump/evidence-chain.js';\nexport * from '../aump/index.js';\n";
    expect(await boundaryMessages('extensions/aap/planted.ts', reaching)).toEqual([
      '1: ../aump/evidence-chain.js: extensions/aap/ reaches into extensions/aump/ (use its index.ts)',
    ]);
  });

  it('reports dynamic, computed and self imports, and leaves allowed ones alone', async () => {
    const text = [
      "const pg = await import('pg');",
      'const mod = await import(name);',
      "import type { Root } from 'protobufjs';",
      "import { A2AServer } from 'concord/server';",
      "import { AgentCard } from '../protocol/index.js';",
      'export const all = [pg, mod, A2AServer, AgentCard] as unknown as Root;',
    ].join('\n');
    expect(await boundaryMessages('server/planted.ts', text)).toEqual([
      '1: pg: pg belongs to store/postgres/, cluster/postgres/',
      '2: an import of a computed module name (allow it in COMPUTED_IMPORTS with a reason)',
      '3: protobufjs: protobufjs belongs to server/grpc/, client/transports/grpc-, protocol/grpc/ (types only)',
      '4: concord/server: the package imports itself relatively, never by its name',
    ]);
  });
});

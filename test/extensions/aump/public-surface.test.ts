/**
 * `concord-a2a/extensions/aump` as a user imports it: by the package name (package.json `exports`,
 * the built code), in a separate Node process; its run-time surface is exactly the deliberate list
 * in src/extensions/aump/index.ts, and the plain functions work from there.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');

const PUBLIC_VALUES = [
  'AUMP_A2A_EXTENSION_URI',
  'AUMP_VERSION',
  'AumpEvidenceError',
  'AumpMessageError',
  'AumpRuntime',
  'EvidenceLog',
  'EvidencePolicyError',
  'MandateError',
  'a2aMessage',
  'aumpHostExtension',
  'aumpInterceptor',
  'aumpServerExtension',
  'createAumpRuntime',
  'evaluateAction',
  'loadMandateFile',
  'mandateHash',
  'parseMandate',
  'validateA2aMessage',
  'validateEvidenceEvent',
  'validateMandateSemantics',
  'verifyEvidenceChain',
].sort();

const PROGRAM = `
import * as aump from 'concord-a2a/extensions/aump';
const mandate = await aump.loadMandateFile(process.argv[1]);
const now = new Date('2026-04-25T18:00:00Z');
const action = { type: 'accept_deal', summary: 'x', amount: { currency: 'USD', total_minor: 700 } };
const built = aump.a2aMessage(mandate, { messageId: 'm1', parts: [{ text: 'hi' }] });
console.log(JSON.stringify({
  exports: Object.keys(aump).sort(),
  hash: aump.mandateHash(mandate),
  decision: aump.evaluateAction(mandate, action, {}, { now }).decision,
  valid: aump.validateA2aMessage(built, { mandates: [mandate] }).valid,
}));
`;

describe('concord-a2a/extensions/aump', () => {
  it('imports by package name, with exactly the public list, and works', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          PROGRAM,
          join(FIXTURES, 'conformance/mandates/marketplace-buyer.valid.json'),
        ],
        { cwd: ROOT, timeout: 30_000 },
        (error, stdout, stderr) =>
          done({ code: error === null ? 0 : Number(error.code ?? -1), stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      exports: PUBLIC_VALUES,
      hash: 'sha256-e27c2259f3135f02e1803950caacd8a28504b06ef47c081844e068199dee8c52',
      decision: 'denied',
      valid: true,
    });
  });
});

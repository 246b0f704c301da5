/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read loosely in assertions */
// The dealer's development token: printed at start as valid for 24 hours when
// DEALER_JWT_SECRET is not set, it keeps working after a restart on the same data directory,
// whose secret file only its owner may read.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aapBody, post, ROOT, startDealer } from './dealer-process.js';

const lead = (): Record<string, any> =>
  JSON.parse(readFileSync(join(ROOT, 'schemas/aap/v0.1/examples/general-lead-request.example.json'), 'utf8'));

/** The token a dealer printed at start. */
function printedToken(output: string): string {
  const match = /DEALER_DEV_TOKEN=(\S+)/.exec(output);
  if (match === null) throw new Error(`no development token printed: ${output}`);
  return match[1]!;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-dealer-token-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the dealer development token', () => {
  it('still works after a restart on the same data directory', async () => {
    // An empty DEALER_JWT_SECRET counts as unset: the dealer makes its own.
    const first = await startDealer(dir, { DEALER_JWT_SECRET: '' });
    let token: string;
    try {
      token = printedToken(first.output());
      expect(first.output()).toContain('for 24 hours');
      const before = await post(`${first.url}message:send`, aapBody(lead()), {
        authorization: `Bearer ${token}`,
      });
      expect(before.status).toBe(200);
    } finally {
      await first.stop();
    }

    const second = await startDealer(dir, { DEALER_JWT_SECRET: '' });
    try {
      const after = await post(`${second.url}message:send`, aapBody(lead()), {
        authorization: `Bearer ${token}`,
      });
      expect(after.status, JSON.stringify(after.json)).toBe(200);
      expect(after.json.message.parts[0].data.type).toBe('lead.general.response');
      // A token signed with another secret is still refused: the secret is the dealer's own.
      const forged = token.replace(/\.[^.]+$/, '.AAAA');
      const refused = await post(`${second.url}message:send`, aapBody(lead()), {
        authorization: `Bearer ${forged}`,
      });
      expect(refused.status).toBe(401);
    } finally {
      await second.stop();
    }
    // Only its owner may read the secret: anyone who can mints tokens.
    expect(statSync(join(dir, 'dealer-jwt-secret')).mode & 0o777).toBe(0o600);
  }, 60_000);
});

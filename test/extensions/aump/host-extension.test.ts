// The AUMP host extension's settings (`extensions.aump` in an agent definition): every mandate is
// loaded and schema-checked before the host starts, and each wrong setting is reported at its
// field with the definition's file.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aumpHostExtension } from '../../../src/extensions/aump/index.js';
import { startHost, type RunningHost } from '../../../src/host/index.js';
import { FIXTURES } from './helpers.js';

let dir: string | undefined;
let host: RunningHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function hostWith(aump: unknown): string {
  dir = mkdtempSync(join(tmpdir(), 'concord-aump-host-'));
  copyFileSync(
    join(FIXTURES, 'conformance/mandates/marketplace-seller.valid.json'),
    join(dir, 'seller.json'),
  );
  copyFileSync(
    join(FIXTURES, 'conformance/mandates/marketplace-buyer.missing-aump.json'),
    join(dir, 'broken.json'),
  );
  writeFileSync(join(dir, 'agent.mjs'), 'export default (context, updater) => updater.complete("ok");');
  const agent = {
    id: 'seller',
    description: 'Sells',
    exposed: true,
    handler: './agent.mjs',
    extensions: { aump },
  };
  writeFileSync(join(dir, 'concord.config.json5'), JSON.stringify({ agents: { list: [agent] } }, null, 2));
  return dir;
}

async function startError(aump: unknown): Promise<string> {
  const root = hostWith(aump);
  const error = (await startHost(root, { port: 0, store: 'memory', extensions: [aumpHostExtension()] }).catch(
    (e: unknown) => e,
  )) as Error;
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toContain(join(root, 'concord.config.json5'));
  return error.message;
}

const FIELD = '/agents/list/0/extensions/aump';

describe('extensions.aump settings', () => {
  it('starts with valid settings and serves the declaration', async () => {
    const root = hostWith({ mandates: ['./seller.json'], receivedEvent: 'offer_received' });
    host = await startHost(root, { port: 0, store: 'memory', extensions: [aumpHostExtension()] });
    const card = (await (await fetch(`${host.url}agents/seller/.well-known/agent-card.json`)).json()) as {
      capabilities: { extensions: { uri: string }[] };
    };
    expect(card.capabilities.extensions).toHaveLength(1);
  });

  it('names a missing, unreadable or invalid mandate file', async () => {
    expect(await startError({ mandates: ['./nowhere.json'], receivedEvent: 'offer_received' })).toContain(
      `${FIELD}/mandates/0: ${join(dir!, 'nowhere.json')}: not a valid AUMP mandate: / cannot be read (ENOENT)`,
    );
    expect(
      await startError({ mandates: ['./seller.json', './broken.json'], receivedEvent: 'offer_received' }),
    ).toContain(
      `${FIELD}/mandates/1: ${join(dir!, 'broken.json')}: not a valid AUMP mandate: /aump is required`,
    );
    expect(
      await startError({
        mandates: ['./seller.json'],
        known: ['./broken.json'],
        receivedEvent: 'offer_received',
      }),
    ).toContain(`${FIELD}/known/0:`);
  });

  it('names wrong settings', async () => {
    expect(await startError({ mandates: [] })).toContain(
      `${FIELD}/mandates: must list at least one mandate file`,
    );
    expect(
      await startError({ mandates: ['./seller.json'], receivedEvent: 'offer_received', verify: true }),
    ).toContain(`${FIELD}/verify: unknown setting (known: mandates, known, revoked, receivedEvent)`);
    expect(
      await startError({ mandates: ['./seller.json'], receivedEvent: 'offer_received', revoked: [1] }),
    ).toContain(`${FIELD}/revoked/0: must be a non-empty string`);
  });

  it('requires the evidence event of received messages to be one the mandate requires', async () => {
    expect(await startError({ mandates: ['./seller.json'] })).toContain(
      `${FIELD}/receivedEvent: the default "message_received" is not an evidence event mandate aump_mnd_market_seller_001 requires; choose one of: listing_created, offer_received, counteroffer_sent, approval_requested`,
    );
    expect(await startError({ mandates: ['./seller.json'], receivedEvent: 'gossip' })).toContain(
      `"gossip" is not an evidence event`,
    );
  });
});

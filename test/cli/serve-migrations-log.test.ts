/**
 * `concord serve`'s lifecycle log names the task store's schema migration (decision 0158): a new
 * SQLite file is migrated from version 0, the same file opened again is already current; a host
 * logs its agents' stores the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './serve-helpers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(args: string[]): Promise<Served> {
  const served = await serve([...args, '--port', '0', '--log-format', 'json']);
  cleanups.push(() => served.stop());
  return served;
}

/** The `migrations` records written before the listening line. */
function migrations(stdout: string): { from: number; to: number; msg: string }[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event?: string; from: number; to: number; msg: string })
    .filter((record) => record.event === 'migrations');
}

describe('the migrations lifecycle record', () => {
  it('says a new SQLite file was migrated from 0, and the same file later that it is current', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'concord-migrations-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await started(['examples/echo', '--data-dir', dataDir]);
    const [fresh] = migrations(first.stdout());
    expect(fresh).toMatchObject({ from: 0 });
    expect(fresh!.to).toBeGreaterThanOrEqual(10);
    expect(fresh!.msg).toBe(`task store schema migrated from version 0 to ${fresh!.to}`);
    expect(await first.stop()).toBe(0);

    const second = await started(['examples/echo', '--data-dir', dataDir]);
    expect(migrations(second.stdout())).toEqual([
      expect.objectContaining({
        from: fresh!.to,
        to: fresh!.to,
        msg: `task store schema at version ${fresh!.to}`,
      }),
    ]);
  });

  it("logs one record per store of a host's agents", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'concord-migrations-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const host = await started(['examples/pipeline', '--data-dir', dataDir]);
    const records = migrations(host.stdout());
    expect(records.length).toBeGreaterThanOrEqual(1);
    for (const record of records) expect(record.from).toBe(0);
  });
});

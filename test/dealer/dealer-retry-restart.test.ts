// "Things done twice" (decision 0147): the dealer answers every skill with a Message, and
// a buyer agent retries a request with the same messageId (the dealer keys sends on it, 0133). A
// retry after the server restarted must get the first answer, not run the skill again: the seed's
// `lead.appointment` must not book a second test drive, and the seed's `lead.general` must answer
// `received` again, not `duplicate`. Driven as a user runs it: `concord serve examples/dealer` as a
// child process, the seed's requests over HTTP+JSON, a SIGKILL in between, then `dealer.db` read.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startDealer, token, type Dealer } from './dealer-process.js';

interface SeedCall {
  skill: string;
  body: string;
}
const seed = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/seed-curls.json'), 'utf8')) as {
  calls: SeedCall[];
};
/** The seed's request body for a skill, as its curl sends it. */
const seedBody = (skill: string): string => seed.calls.find((call) => call.skill === skill)!.body;

let dir: string;
let dealer: Dealer | undefined;
let auth: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-dealer-replay-'));
  auth = { authorization: `Bearer ${await token()}` };
});

afterAll(async () => {
  await dealer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Stops the dealer the hard way: whatever it acknowledged must already be on disk. */
async function crash(running: Dealer): Promise<void> {
  const exited = new Promise((done) => running.child.once('exit', done));
  running.child.kill('SIGKILL');
  await exited;
}

function count(sql: string): number {
  const db = new Database(join(dir, 'dealer.db'), { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('a retried dealer request across a restart', () => {
  it('answers the seed lead.appointment and lead.general again as first answered; the skills ran once', async () => {
    dealer = await startDealer(dir);
    const send = (running: Dealer, skill: string) =>
      post(`${running.url}a2a/message:send`, seedBody(skill), auth);
    const booked = await send(dealer, 'lead.appointment');
    const lead = await send(dealer, 'lead.general');
    expect(booked.status, JSON.stringify(booked.json)).toBe(200);
    expect(lead.status, JSON.stringify(lead.json)).toBe(200);
    const appointment = booked.json.message.parts[0].data.data;
    expect(appointment.status).toBe('confirmed');
    expect(lead.json.message.parts[0].data.data.status).toBe('received');

    await crash(dealer);
    dealer = await startDealer(dir);
    const rebooked = await send(dealer, 'lead.appointment');
    const relead = await send(dealer, 'lead.general');
    // The very answers of the first sends: same reply messageId, same appointment and lead ids.
    expect(rebooked.status).toBe(200);
    expect(rebooked.json).toEqual(booked.json);
    expect(relead.json).toEqual(lead.json);
    expect(relead.json.message.parts[0].data.data.status).toBe('received');

    // Once more after a clean stop, on the JSON-RPC binding this time.
    expect(await dealer.stop()).toBe(0);
    dealer = await startDealer(dir);
    const rpc = await post(
      dealer.url,
      { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: JSON.parse(seedBody('lead.appointment')) },
      { ...auth, 'a2a-version': '1.0' },
    );
    expect(rpc.json.result).toEqual(booked.json);
    await dealer.stop();
    dealer = undefined;

    expect(count('SELECT COUNT(*) AS n FROM dealer_appointments')).toBe(1);
    expect(count('SELECT COUNT(*) AS n FROM dealer_leads')).toBe(1);
  }, 90_000);
});

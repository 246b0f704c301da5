/**
 * The console's Approvals page in a real browser (issue 26, decisions 0017, 0159), on a secured
 * host (test/console/fixtures/approvals): without credentials only the sign-in form shows; signed
 * in as a caller without the owner scope it says why it shows nothing; signed in as an owner (a JWT with `agents:approve`), a held `payments.pay` task sent over HTTP by a
 * caller appears in the queue, is approved with a reason, runs to completion, and the audit trail
 * names the owner and the reason. No request leaves the origin, axe finds nothing serious.
 */
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/protocol/index.js';
import {
  axeViolations,
  browserMissing,
  launchBrowser,
  recordedPage,
  serveConsole,
  type ServedConsole,
  screenshot,
} from './browser.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/approvals');
const SECRET = 'console-approvals-test-secret-of-enough-length';
const ISSUER = 'https://issuer.console.test';

function token(subject: string, scope: string): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

async function rpc(url: string, bearer: string, method: string, params: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: { task?: Task } & Partial<Task>; error?: { message: string } };
}

describe.skipIf(browserMissing !== undefined)('console: approvals', () => {
  let browser: Browser;
  let host: ServedConsole;
  let owner: string;
  let caller: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    host = await serveConsole(FIXTURE, [], { CONSOLE_APPROVALS_JWT_SECRET: SECRET });
    owner = await token('owner-ana', 'agents:approve');
    caller = await token('caller-bo', '');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('shows only the sign-in form to a visitor without credentials', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    const statuses = new Map<string, number>();
    page.on('response', (response) => statuses.set(new URL(response.url()).pathname, response.status()));
    await page.goto(host.consoleUrl);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Sign in to the Concord Console' }).count())
      .toBe(1);
    await expect.poll(() => page.getByLabel('Token').count()).toBe(1);
    expect(statuses.get('/console/api/session')).toBe(401);
    expect(await page.getByRole('list', { name: 'Agents' }).count()).toBe(0);
    expect(await page.getByRole('navigation').count()).toBe(0);
    // The only agent-related request is the refused session; no agent API was asked.
    expect(recorded.requests.filter((url) => url.includes('/agents'))).toEqual([]);

    await screenshot(page, 'sign-in');
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.foreign(new URL(host.consoleUrl).origin)).toEqual([]);
    expect(recorded.errors.filter((e) => !/Failed to load resource.*401/.test(e))).toEqual([]);
    await recorded.close();
  });

  it('tells a signed-in caller without the owner scope why it sees no approvals', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(host.consoleUrl);
    await page.getByLabel('Token').fill(caller);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('signed in as caller-bo').count()).toBe(1);
    await page.getByRole('link', { name: 'Approvals' }).click();
    const notice = page.getByRole('alert');
    await expect.poll(() => notice.count()).toBe(1);
    expect(await notice.innerText()).toContain('need credentials holding the agents:approve scope');
    // Still signed in: the owner API was not asked (its 401 would send the console to sign-in).
    expect(await page.getByRole('navigation').count()).toBe(1);
    expect(recorded.requests.filter((url) => url.includes('/approvals'))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    // The one refusal is the session asked before signing in.
    expect(recorded.errors.filter((e) => !/Failed to load resource.*401/.test(e))).toEqual([]);
    await recorded.close();
  });

  it('lets the owner approve a held task with a reason, which then runs', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(host.consoleUrl);
    await page.getByLabel('Token').fill(owner);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('signed in as').count()).toBe(1);
    // The bearer scheme names the caller by the token's `sub`.
    const principal = 'owner-ana';
    expect(await page.locator('.who').innerText()).toContain(`signed in as ${principal}`);

    const agentUrl = `${host.url}agents/payer/`;
    const sent = await rpc(agentUrl, caller, 'SendMessage', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [
          { data: { _a2a: true, contract: 'payments.pay', payload: { invoice: 'INV-7', amount: 42 } } },
        ],
      },
    });
    const held = sent.result!.task!;
    expect(held.status.state).toBe('TASK_STATE_AUTH_REQUIRED');

    await page.getByRole('link', { name: 'Approvals' }).click();
    const queue = page.getByRole('table');
    await expect.poll(() => queue.getByRole('link', { name: held.id }).count()).toBe(1);
    await expect.poll(() => queue.getByText('payments.pay').count()).toBe(1);
    await expect.poll(() => queue.getByText('pending').count()).toBe(1);
    await queue.getByRole('rowheader').getByRole('link').click();

    await page.getByLabel('Reason (optional, kept in the audit trail)').fill('Invoice INV-7 checked');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('status').getByText('Approved').count()).toBe(1);

    let task: Partial<Task> | undefined;
    for (let i = 0; i < 50 && task?.status?.state !== 'TASK_STATE_COMPLETED'; i++) {
      task = (await rpc(agentUrl, caller, 'GetTask', { id: held.id })).result;
      if (task?.status?.state !== 'TASK_STATE_COMPLETED') await new Promise((r) => setTimeout(r, 100));
    }
    expect(task?.status?.state).toBe('TASK_STATE_COMPLETED');
    expect(task?.artifacts?.[0]?.parts[0]?.data).toEqual({ paid: 'INV-7', amount: 42 });

    const trail = page.getByRole('list', { name: 'Audit trail' });
    await expect.poll(() => trail.getByRole('listitem').count()).toBe(2);
    const decision = await trail.getByRole('listitem').nth(1).innerText();
    expect(decision).toContain(`approved by ${principal}`);
    expect(decision).toContain('Reason: Invoice INV-7 checked');
    await expect.poll(() => page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    await screenshot(page, 'approvals');
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.foreign(new URL(host.consoleUrl).origin)).toEqual([]);
    expect(recorded.errors.filter((e) => !/Failed to load resource.*401/.test(e))).toEqual([]);
    await recorded.close();
  });
});

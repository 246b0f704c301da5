/**
 * The console's Mandates page in a real browser (issue 26, decisions 0057, 0159): the
 * aump-negotiation example closes one deal, then the internal listener's console shows the
 * seller's and the buyer's evidence about the seller's task, each chain verified valid with its
 * events in order; the public listener of this host without security explains why it shows none.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyListing } from '../helpers/aump-deal.js';
import {
  axeViolations,
  browserMissing,
  launchBrowser,
  recordedPage,
  serveConsole,
  type ServedConsole,
  screenshot,
} from './browser.js';

const SELLER_MANDATE = 'aump_mnd_demo_seller_001';
const BUYER_MANDATE = 'aump_mnd_demo_buyer_001';

describe.skipIf(browserMissing !== undefined)('console: mandates', () => {
  let browser: Browser;
  let host: ServedConsole;
  let sellerTask: string;
  let sellerHead: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    host = await serveConsole('examples/aump-negotiation', ['--internal-port', '0']);
    const task = await buyListing(host.url);
    expect(task?.status.state).toBe('TASK_STATE_COMPLETED');
    // The seller's task of the offer, as its evidence names it (the internal listener's owner API).
    const internal = new URL('../', host.internalConsoleUrl!).href;
    const chains = (await (
      await fetch(`${internal}agents/seller/evidence?mandateId=${SELLER_MANDATE}`)
    ).json()) as {
      chains: {
        events: { event_type: string; metadata: Record<string, string> }[];
        verification: { headHash: string };
      }[];
    };
    sellerTask = chains.chains[0]!.events.find((e) => e.event_type === 'offer_received')!.metadata
      .a2a_task_id!;
    sellerHead = chains.chains[0]!.verification.headHash;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('shows the verified chains that mention a task on the internal listener', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${host.internalConsoleUrl!}#/evidence/seller?taskId=${encodeURIComponent(sellerTask)}`);
    const seller = page.getByRole('region', { name: `Mandate ${SELLER_MANDATE}` });
    await expect.poll(() => seller.count()).toBe(1);
    expect(await seller.locator('.badge').innerText()).toBe('valid');
    const events = seller.getByRole('list', { name: 'Events' }).getByRole('listitem');
    expect(await events.count()).toBeGreaterThan(0);
    const texts = await events.allInnerTexts();
    texts.forEach((text, index) => expect(text.startsWith(`#${index + 1} `)).toBe(true));
    expect(texts.join('\n')).toContain('offer_received · received');
    expect(texts.join('\n')).toContain(sellerTask);
    expect(await seller.locator('code.hash').innerText()).toBe(sellerHead);
    await screenshot(page, 'evidence');
    expect(await axeViolations(page)).toEqual([]);

    // The buyer's chain mentions the same task: its offer was answered by it. Chosen in the form.
    await page.getByLabel('Agent').selectOption('buyer');
    const buyer = page.getByRole('region', { name: `Mandate ${BUYER_MANDATE}` });
    await expect.poll(() => buyer.count()).toBe(1);
    expect(await buyer.locator('.badge').innerText()).toBe('valid');
    expect(await page.getByLabel('Task id').inputValue()).toBe(sellerTask);

    expect(recorded.foreign(new URL(host.internalConsoleUrl!).origin)).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });

  it('explains on the public listener that owner APIs are served on the internal one', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${host.consoleUrl}#/evidence/seller?taskId=${encodeURIComponent(sellerTask)}`);
    const notice = page.getByRole('alert');
    await expect.poll(() => notice.count()).toBe(1);
    expect(await notice.innerText()).toContain('open the console on the internal listener');
    expect(await page.getByRole('region').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.foreign(new URL(host.consoleUrl).origin)).toEqual([]);
    expect(recorded.errors.filter((e) => !/Failed to load resource.*404/.test(e))).toEqual([]);
    await recorded.close();
  });
});

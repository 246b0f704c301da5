/**
 * The console's Agents page in a real browser (issue 26, decision 0159): the pipeline example's
 * three agents and their contracts, each card in both protocol versions, and the page's own
 * guarantees — nothing requested from another origin, nothing the CSP refused, no serious axe
 * finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  axeViolations,
  browserMissing,
  launchBrowser,
  recordedPage,
  screenshot,
  serveConsole,
  type ServedConsole,
} from './browser.js';

describe.skipIf(browserMissing !== undefined)('console: agents', () => {
  let browser: Browser;
  let host: ServedConsole;

  beforeAll(async () => {
    browser = await launchBrowser();
    host = await serveConsole('examples/pipeline', ['--internal-port', '0']);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('shows the pipeline example three agents and their contracts on the internal listener', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(host.internalConsoleUrl!);
    const agents = page.getByRole('list', { name: 'Agents' });
    await expect.poll(() => agents.getByRole('listitem').count()).toBe(3);
    for (const name of ['coordinator', 'researcher', 'reviewer']) {
      await expect.poll(() => agents.getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    }
    await expect.poll(() => agents.getByText('research.query').count()).toBe(1);
    await expect.poll(() => agents.getByText('review.findings').count()).toBe(1);

    await page.getByRole('link', { name: 'researcher' }).first().click();
    const contracts = page.getByRole('table');
    await expect.poll(() => contracts.getByRole('rowheader').allInnerTexts()).toEqual(['research.query']);
    await expect.poll(() => page.getByText('Only contract messages are accepted.').count()).toBe(1);
    // Both protocol versions' cards: 1.0 lists supportedInterfaces, 0.3 a url and protocolVersion.
    await page.getByText('The card as A2A 1.0 serves it').click();
    await expect
      .poll(() => page.getByLabel('Agent card, A2A 1.0').innerText())
      .toContain('supportedInterfaces');
    await page.getByRole('button', { name: 'A2A 0.3' }).click();
    await page.getByText('The card as A2A 0.3 serves it').click();
    await expect
      .poll(() => page.getByLabel('Agent card, A2A 0.3').innerText())
      .toContain('"protocolVersion": "0.3');

    await screenshot(page, 'agents');
    expect(await axeViolations(page)).toEqual([]);
    const origin = new URL(host.internalConsoleUrl!).origin;
    expect(recorded.foreign(origin)).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });

  it('shows only the exposed agent on the public listener', async () => {
    const recorded = await recordedPage(browser);
    await recorded.page.goto(host.consoleUrl);
    const agents = recorded.page.getByRole('list', { name: 'Agents' });
    await expect.poll(() => agents.getByRole('listitem').count()).toBe(1);
    expect(await agents.innerText()).toContain('coordinator');
    await recorded.close();
  });
});

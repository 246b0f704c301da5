/**
 * The console's Try it page in a real browser (issue 26, decision 0159): a form generated from
 * the pipeline researcher's `research.query` input schema, checked in the browser before anything
 * is sent, then one SendStreamingMessage whose events fill the timeline; and with the TCK agent
 * (which asks for input on any message a kit did not name) a reply in the same task and a cancel.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  axeViolations,
  browserMissing,
  launchBrowser,
  recordedPage,
  serveConsole,
  type RecordedPage,
  type ServedConsole,
  screenshot,
} from './browser.js';

const streams = (recorded: RecordedPage) =>
  recorded.requests.filter((url) => url.endsWith('/message:stream'));

describe.skipIf(browserMissing !== undefined)('console: try it', () => {
  let browser: Browser;
  let pipeline: ServedConsole;
  let tck: ServedConsole;

  beforeAll(async () => {
    browser = await launchBrowser();
    pipeline = await serveConsole('examples/pipeline', ['--internal-port', '0']);
    // `concord serve examples/tck` serves one bare agent without a console, so the TCK agent's
    // handler is hosted here as the one agent of a host.
    const dir = mkdtempSync(join(tmpdir(), 'concord-try-it-'));
    const handler = fileURLToPath(new URL('../../examples/tck/agent.mjs', import.meta.url));
    const config = {
      agents: { list: [{ id: 'tck', description: 'The TCK agent', exposed: true, handler }] },
    };
    writeFileSync(join(dir, 'concord.config.json'), JSON.stringify(config));
    tck = await serveConsole(join(dir, 'concord.config.json'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await pipeline?.stop();
    await tck?.stop();
  });

  it('checks the contract payload in the browser, then streams the task to completion', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${pipeline.internalConsoleUrl!}#/try/researcher?contract=research.query`);
    const topic = page.getByLabel('topic');
    const maxSources = page.getByLabel('maxSources');
    await topic.waitFor();
    expect(await topic.getAttribute('aria-required')).toBe('true');

    // Topic left empty, a number that is not an integer: both named, nothing sent.
    await maxSources.fill('2.5');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Nothing was sent');
    expect(await topic.getAttribute('aria-invalid')).toBe('true');
    expect(await maxSources.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-topic-error').innerText()).toBe('is required');
    expect(await page.locator('#field-maxSources-error').innerText()).toContain('Expected "integer"');
    expect(await maxSources.getAttribute('aria-describedby')).toBe('field-maxSources-error');

    // Text in an integer field is named too (kept raw, not turned into nothing).
    await topic.fill('agent protocols');
    await maxSources.fill('abc');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#field-maxSources-error').innerText()).toContain('"string"');
    expect(await topic.getAttribute('aria-invalid')).toBeNull();
    expect(streams(recorded)).toEqual([]);

    await maxSources.fill('3');
    await page.getByRole('button', { name: 'Send' }).click();
    const events = page.getByRole('region', { name: 'Events' });
    expect(await events.getAttribute('aria-live')).toBe('polite');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'The task ended' }).innerText())
      .toContain('completed');
    const timeline = await events.getByRole('list').innerText();
    expect(timeline).toContain('Findings on agent protocols: 3 sources agree.');
    expect(timeline).toContain('https://www.rfc-editor.org/rfc/rfc8785');
    expect(timeline).toContain('"contract": "research.query"');
    const taskLink = page.getByRole('link', { name: /^[0-9a-f-]{36}$/ });
    expect(await taskLink.getAttribute('href')).toMatch(/^#\/tasks\/researcher\/[0-9a-f-]{36}$/);

    expect(streams(recorded)).toHaveLength(1);
    await screenshot(page, 'try-it');
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.foreign(new URL(pipeline.internalConsoleUrl!).origin)).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });

  it('offers free text beside the contracts of an agent that takes both', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${pipeline.internalConsoleUrl!}#/try/researcher`);
    // The researcher takes contract messages only: no free text to choose.
    await page.getByLabel('topic').waitFor();
    expect(await page.getByLabel('Contract').locator('option').allInnerTexts()).toEqual(['research.query']);
    await page.getByLabel('Agent').selectOption('reviewer');
    await page.getByRole('textbox', { name: /^findings/ }).waitFor();
    await page.getByLabel('Contract').selectOption({ label: 'Free text' });
    await page.getByLabel('Text').waitFor();
    expect(page.url()).toMatch(/#\/try\/reviewer\?text=1$/);
    expect(await page.getByRole('textbox', { name: /^findings/ }).count()).toBe(0);
    await recorded.close();
  });

  it('answers an input-required task in the same task, then cancels it', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${tck.consoleUrl}#/try/tck`);
    await page.getByLabel('Text').fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    const reply = page.getByLabel('Your reply');
    await reply.waitFor();
    const events = page.getByRole('region', { name: 'Events' }).getByRole('list');
    await expect.poll(() => events.innerText()).toContain('Send another message to continue this task');
    const taskId = await page.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).innerText();

    await reply.fill('more');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect.poll(() => events.getByText('more', { exact: true }).count()).toBe(1);
    await reply.waitFor();
    expect(await page.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).innerText()).toBe(taskId);
    expect(streams(recorded)).toHaveLength(2);

    await page.getByRole('button', { name: 'Cancel task' }).click();
    await expect.poll(() => events.innerText()).toMatch(/Cancel answered:\s*canceled/);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'The task ended' }).innerText())
      .toContain('canceled');
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });
});

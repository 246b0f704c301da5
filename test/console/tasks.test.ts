/**
 * The console's Tasks and Push pages in a real browser (issue 26, decision 0159): tasks made over
 * real HTTP on the pipeline example are listed, filtered by state, and opened with their history
 * and artifacts; the Push page of a task shows its configs, its pending deliveries and the agent's
 * dead letters on the internal listener, and explains the 404 of the public one. Each page: no
 * request to another origin, no console error, no serious axe finding.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  axeViolations,
  browserMissing,
  launchBrowser,
  recordedPage,
  serveConsole,
  type ServedConsole,
  screenshot,
} from './browser.js';

interface SentTask {
  id: string;
  contextId: string;
  status: { state: string };
}

describe.skipIf(browserMissing !== undefined)('console: tasks and push', () => {
  let browser: Browser;
  let host: ServedConsole;
  let done: SentTask;
  let failed: SentTask;

  /** The console errors, after checking that no request of the page was answered 404. */
  function unexpectedErrors(recorded: { errors: string[] }, notFound: string[]): string[] {
    expect(notFound).toEqual([]);
    return recorded.errors;
  }

  async function record() {
    const recorded = await recordedPage(browser);
    const notFound: string[] = [];
    recorded.page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    return { recorded, notFound };
  }

  async function send(text: string): Promise<SentTask> {
    const base = host.internalConsoleUrl!.replace(/console\/$/, '');
    const response = await fetch(`${base}agents/coordinator/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { result: { task: SentTask } }).result.task;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    host = await serveConsole('examples/pipeline', ['--internal-port', '0']);
    done = await send('solar sails | 2');
    // The researcher's contract wants an integer: "many" is refused, and the coordinator fails.
    failed = await send('solar sails | many');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('lists the tasks, filters them by state, and opens one with its history and artifacts', async () => {
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    const { recorded, notFound } = await record();
    const { page } = recorded;
    await page.goto(`${host.internalConsoleUrl!}#/tasks/coordinator`);
    const table = page.getByRole('table', { name: 'Tasks of coordinator' });
    await expect.poll(() => table.getByRole('rowheader').allInnerTexts()).toHaveLength(2);
    expect((await table.getByRole('rowheader').allInnerTexts()).sort()).toEqual([done.id, failed.id].sort());
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('State').selectOption('TASK_STATE_FAILED');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('rowheader').allInnerTexts()).toEqual([failed.id]);
    expect(page.url()).toContain('status=TASK_STATE_FAILED');
    // A status time after both tasks finds none.
    await page.getByLabel('State').selectOption('');
    await page.getByLabel('Status changed after').fill('2999-01-01T00:00:00');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByText('No tasks.').count()).toBe(1);
    await page.getByRole('link', { name: 'Clear' }).click();
    await expect.poll(() => table.getByRole('rowheader').count()).toBe(2);

    await table.getByRole('link', { name: done.id }).click();
    await expect.poll(() => page.getByRole('heading', { name: `Task ${done.id}` }).count()).toBe(1);
    const history = page.getByRole('list', { name: 'History' });
    await expect.poll(() => history.innerText()).toContain('solar sails | 2');
    expect(await history.innerText()).toMatch(/user/i);
    const artifacts = page.getByRole('list', { name: 'Artifacts' });
    await expect.poll(() => artifacts.innerText()).toContain('reviewer:');
    await expect.poll(() => page.getByText('The task has ended').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Push deliveries' }).getAttribute('href')).toBe(
      `#/push/coordinator/${done.id}`,
    );
    await screenshot(page, 'tasks');
    expect(await axeViolations(page)).toEqual([]);

    const origin = new URL(host.internalConsoleUrl!).origin;
    expect(recorded.foreign(origin)).toEqual([]);
    expect(unexpectedErrors(recorded, notFound)).toEqual([]);
    await recorded.close();
  });

  it('shows a task push configs, pending deliveries and the dead letters on the internal listener', async () => {
    const { recorded, notFound } = await record();
    const { page } = recorded;
    await page.goto(`${host.internalConsoleUrl!}#/tasks/coordinator/${done.id}`);
    await page.getByRole('link', { name: 'Push deliveries' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Push deliveries' }).count()).toBe(1);
    await expect
      .poll(() => page.getByText('No push configs: nothing is delivered for this task.').count())
      .toBe(1);
    await expect.poll(() => page.getByText('Nothing is owed').count()).toBe(1);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Dead letters of coordinator' }).count())
      .toBe(1);
    await expect.poll(() => page.getByText('No dead letters.').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    const origin = new URL(host.internalConsoleUrl!).origin;
    expect(recorded.foreign(origin)).toEqual([]);
    expect(unexpectedErrors(recorded, notFound)).toEqual([]);
    await recorded.close();
  });

  it('explains on the public listener that push deliveries are an owner API', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${host.consoleUrl}#/push/coordinator/${done.id}`);
    await expect.poll(() => page.getByText('Push deliveries are an owner API').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    expect(recorded.foreign(new URL(host.consoleUrl).origin)).toEqual([]);
    await recorded.close();
  });
});

describe.skipIf(browserMissing !== undefined)('console: push deliveries of a failing webhook', () => {
  let browser: Browser;
  let host: ServedConsole;
  let hook: Server;
  let dir: string;
  let taskId: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    // A webhook that always fails, so the deliveries are retried and then given up.
    hook = createServer((request, response) => {
      request.resume();
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    // The pipeline example with quick retries: three tries, 400 ms then 800 ms apart.
    dir = mkdtempSync(join(tmpdir(), 'concord-console-push-'));
    cpSync('examples/pipeline', dir, { recursive: true });
    const file = join(dir, 'concord.config.json5');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /\n\{\n/,
        `\n{\n  push: { allow: ['127.0.0.1'], retry: { maxAttempts: 3, initialDelayMs: 400 } },\n`,
      ),
    );
    host = await serveConsole(dir, ['--internal-port', '0']);
    const base = host.internalConsoleUrl!.replace(/console\/$/, '');
    const response = await fetch(`${base}agents/coordinator/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'tides | 1' }] },
        configuration: {
          taskPushNotificationConfig: { taskId: '', id: 'hook', url: hookUrl, token: 'sekrit' },
        },
      }),
    });
    expect(response.status).toBe(200);
    taskId = ((await response.json()) as { task: { id: string } }).task.id;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await new Promise<void>((resolve) => hook?.close(() => resolve()));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the config without its token, the failing deliveries, then a dead letter to requeue', async () => {
    const recorded = await recordedPage(browser);
    const { page } = recorded;
    await page.goto(`${host.internalConsoleUrl!}#/push/coordinator/${taskId}`);
    const configs = page.getByRole('table', { name: `Push configs of task ${taskId}` });
    await expect.poll(() => configs.getByRole('rowheader').allInnerTexts()).toEqual(['hook']);
    expect(await page.locator('main').innerText()).not.toContain('sekrit');
    // Pending, with the failure the webhook answered (reloaded until a try has failed).
    const pending = page.getByRole('table', { name: `Pending deliveries of task ${taskId}` });
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Reload deliveries' }).click();
        return (await pending.count()) === 0 ? '' : await pending.innerText();
      })
      .toContain('503');
    expect(await axeViolations(page)).toEqual([]);

    // Given up after three tries: the dead letters list them once the page is read again.
    const dead = page.getByRole('table', { name: 'Dead letters of coordinator' });
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await dead.count()) === 0
            ? 0
            : await dead.getByRole('button', { name: /^Requeue/ }).count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect(await dead.innerText()).toContain('3 attempts');
    await screenshot(page, 'push');
    expect(await axeViolations(page)).toEqual([]);
    // Requeued, the letter leaves the list (later ones of the same config may die meanwhile).
    const first = (await dead.getByRole('rowheader').allInnerTexts())[0]!;
    await dead.getByRole('button', { name: `Requeue dead letter ${first}` }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: `Dead letter ${first} is back in the outbox` })
          .count(),
      )
      .toBe(1);
    await expect
      .poll(async () => ((await dead.count()) === 0 ? [] : await dead.getByRole('rowheader').allInnerTexts()))
      .not.toContain(first);
    expect(recorded.foreign(new URL(host.internalConsoleUrl!).origin)).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });
});

describe.skipIf(browserMissing !== undefined)('console: a running task', () => {
  let browser: Browser;
  let host: ServedConsole;
  let dir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    // An agent that works for as many milliseconds as the message says, then answers.
    dir = mkdtempSync(join(tmpdir(), 'concord-console-live-'));
    writeFileSync(
      join(dir, 'slow.mjs'),
      `export const executor = {
  async execute(context, updater) {
    const ms = Number(context.message.parts[0].text);
    updater.startWork('working');
    await new Promise((resolve) => setTimeout(resolve, ms));
    updater.addArtifact([{ text: 'slept ' + ms }], { name: 'result' });
    updater.complete();
  },
};
`,
    );
    writeFileSync(
      join(dir, 'concord.config.json5'),
      `{ agents: { list: [{ id: 'slow', description: 'Takes its time', exposed: true, handler: './slow.mjs' }] } }`,
    );
    host = await serveConsole(dir, ['--internal-port', '0']);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function start(ms: number): Promise<string> {
    const response = await fetch(`${host.consoleUrl.replace(/console\/$/, '')}agents/slow/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: String(ms) }] },
        configuration: { returnImmediately: true },
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { task: { id: string } }).task.id;
  }

  it('follows a running task live until it ends, and stops following on request', async () => {
    const recorded = await recordedPage(browser);
    const notFound: string[] = [];
    recorded.page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    const { page } = recorded;
    const follow = await start(1500);
    await page.goto(`${host.consoleUrl}#/tasks/slow/${follow}`);
    await page.getByRole('button', { name: 'Resubscribe' }).click();
    const events = page.getByRole('list', { name: 'Live events' });
    await expect.poll(() => page.getByText('The stream ended.').count(), { timeout: 10_000 }).toBe(1);
    expect(await events.innerText()).toContain('artifact result');
    expect(await events.innerText()).toContain('status: completed');
    // The task is read again once its stream ends; the events stay, and no Resubscribe is offered.
    await expect.poll(() => page.locator('dl.facts').innerText()).toContain('completed');
    expect(await page.getByRole('button', { name: 'Resubscribe' }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('list', { name: 'Artifacts' }).innerText())
      .toContain('slept 1500');
    expect(await axeViolations(page)).toEqual([]);

    const stop = await start(5000);
    await page.goto(`${host.consoleUrl}#/tasks/slow/${stop}`);
    await page.getByRole('button', { name: 'Resubscribe' }).click();
    await expect.poll(() => page.getByText(/Following the task/).count()).toBe(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.getByText('Stopped following the task.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Resubscribe' }).count()).toBe(1);
    expect(recorded.foreign(new URL(host.consoleUrl).origin)).toEqual([]);
    // Not even the trace look-ups 404: the host answers a null trace id for these tasks.
    expect(notFound).toEqual([]);
    expect(recorded.errors).toEqual([]);
    await recorded.close();
  });
});

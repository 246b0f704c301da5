/**
 * The console's browser tests' kit (decision 0159): Debian's Chromium driven by playwright-core
 * (no browser is downloaded; CONCORD_CHROMIUM names another executable), a page that records
 * every request it makes and every Content-Security-Policy report, and an axe-core scan run in
 * the page. Suites skip, saying why, where no Chromium is installed; `.ci/run` installs it.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serve, type Served } from '../cli/serve-helpers.js';

export const CHROMIUM = process.env.CONCORD_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser suites cannot run here, or undefined when they can. */
export const browserMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CONCORD_CHROMIUM): the console's browser tests are skipped`;
if (browserMissing !== undefined) console.warn(browserMissing);

/** Headless Chromium with no background traffic (the machine's network is closed). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A page of a fresh context, recording what it asks for. */
export interface RecordedPage {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Requests to any origin but `origin`. */
  foreign(origin: string): string[];
  /** Console errors (a CSP violation is reported there). */
  errors: string[];
  close(): Promise<void>;
}

export async function recordedPage(browser: Browser): Promise<RecordedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    page,
    requests,
    errors,
    foreign: (origin) => requests.filter((url) => new URL(url).origin !== origin && !url.startsWith('data:')),
    close: () => context.close(),
  };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core finding. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations of the page as it is now (WCAG 2.x A and
 * AA rules). axe is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** `concord serve` with the console, and where each listener serves it. */
export interface ServedConsole extends Served {
  /** The console on the public listener. */
  consoleUrl: string;
  /** The console on the internal listener, when `--internal-port` was given. */
  internalConsoleUrl?: string;
}

/** Starts `concord serve target ...args` (memory store unless args say otherwise) and waits for its console lines. */
export async function serveConsole(
  target: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServedConsole> {
  const served = await serve(
    [target, '--port', '0', ...(args.includes('--store') ? [] : ['--store', 'memory']), ...args],
    env,
  );
  const wanted = args.includes('--internal-port') ? 2 : 1;
  for (let i = 0; i < 100; i++) {
    if ((served.stdout().match(/console: http/g) ?? []).length >= wanted) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const urls = [...served.stdout().matchAll(/console: (http:\/\/\S+)/g)].map((m) => m[1]!);
  const internal = urls.find((url) => !url.startsWith(served.url));
  return {
    ...served,
    consoleUrl: `${served.url}console/`,
    ...(internal === undefined ? {} : { internalConsoleUrl: internal }),
  };
}

/** Where screenshots of the pages go (committed, shown in docs/guides/console.md). */
export const SCREENSHOT_DIR = new URL('../../docs/images/console/', import.meta.url);

/**
 * Saves the page as `docs/images/console/<name>.png` when CONCORD_SCREENSHOTS is set
 * (`npm run console:screenshots`); the suites' normal runs write nothing.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONCORD_SCREENSHOTS === undefined) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOT_DIR).pathname, fullPage: true });
}

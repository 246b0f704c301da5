/**
 * The `concord` command line itself, through the real CLI process: `--version`, `help <command>`
 * showing that command's own help, and one exit code (2) for every mistake in the command line,
 * whatever its kind — unknown command, unknown option, missing argument, bad option value — on
 * every command (a2a-cli SPEC §5.1, §5.2, §9.6).
 */
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concord, ROOT } from './cli-process.js';

const COMMANDS = [
  'serve',
  'card',
  'contracts',
  'approvals',
  'push',
  'db',
  'check',
  'aump',
  'send',
  'get',
  'list',
  'cancel',
  'subscribe',
  'push-config',
];

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('concord --version and help', () => {
  it('prints the package version for --version, -v and version, exit 0', async () => {
    for (const flag of ['--version', '-v', 'version']) {
      const run = await concord([flag]);
      expect(run.code, flag).toBe(0);
      expect(run.stdout).toBe(`concord ${VERSION}\n`);
      expect(run.stderr).toBe('');
    }
  });

  it("concord help <command> shows that command's help, as <command> --help does", async () => {
    await fourAtATime(['check', 'send', 'serve', 'aump'], async (command) => {
      const [help, own] = await Promise.all([concord(['help', command]), concord([command, '--help'])]);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: concord ${command} `));
      expect(help.stdout).toBe(own.stdout);
    });
    const serveHelp = (await concord(['serve', '--help'])).stdout;
    for (const flag of [
      '--log-level',
      '--log-format',
      '--otlp',
      '--metrics',
      '--shutdown-grace',
      '/readyz',
    ]) {
      expect(serveHelp).toContain(flag);
    }
    const general = await concord(['help']);
    expect(general.code).toBe(0);
    expect(general.stdout).toContain('concord help <command>');
    expect((await concord(['--help'])).stdout).toBe(general.stdout);
  });
});

/** Runs `each` over `items`, four at a time (each item is a CLI process). */
async function fourAtATime<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Runs `concord ...args` and expects a usage error: exit 2, a message on stderr, no stack trace. */
async function expectUsageError(args: string[], message: RegExp): Promise<void> {
  const run = await concord(args);
  const what = `concord ${args.join(' ')}`;
  expect(run.code, `${what}: ${run.stderr}`).toBe(2);
  expect(`${run.stderr}${run.stdout}`, what).toMatch(message);
  expect(run.stderr, what).not.toMatch(/^\s+at /m);
}

describe('usage errors exit 2, whatever their kind', () => {
  it('no command, an unknown command, help for an unknown command', async () => {
    await expectUsageError([], /Usage: concord <command>/);
    await expectUsageError(['frobnicate'], /unknown command "frobnicate"; commands: serve, card/);
    await expectUsageError(['help', 'frobnicate'], /help: no command "frobnicate"/);
  });

  it('an unknown option on every command', async () => {
    await fourAtATime(COMMANDS, (command) => expectUsageError([command, '--no-such-option'], /./));
  });

  it('a missing argument on every command', async () => {
    const missing: [string[], RegExp][] = [
      [['serve'], /missing the agent to serve/],
      [['card'], /missing the agent or card URL/],
      [['card', 'verify'], /missing the card to verify/],
      [['contracts'], /Usage: concord contracts/],
      [['approvals'], /Usage: concord approvals/],
      [['approvals', 'show', 'http://127.0.0.1:9/'], /missing the approval id/],
      [['push'], /Usage: concord push/],
      // An existing --data-dir, so the id is judged whatever the working directory holds.
      [['push', 'requeue', '--data-dir', tmpdir()], /expected a dead letter id/],
      [['db'], /Usage: concord db/],
      [['check'], /missing the agent URL/],
      [['aump'], /Usage: concord aump/],
      [['aump', 'evidence'], /missing the mandate id/],
      [['send'], /missing the agent URL/],
      [['get', 'http://127.0.0.1:9/'], /missing the task id/],
      [['list'], /missing the agent URL/],
      [['cancel', 'http://127.0.0.1:9/'], /missing the task id/],
      [['subscribe', 'http://127.0.0.1:9/'], /missing the task id/],
      [['push-config'], /missing the action; expected create, get, list or delete/],
      [['push-config', 'list', 'http://127.0.0.1:9/'], /missing the task id/],
      [['push-config', 'get', 'http://127.0.0.1:9/', 't1'], /get: missing the config id/],
      [['push-config', 'create', 'http://127.0.0.1:9/', 't1'], /create: --push-url is required/],
    ];
    await fourAtATime(missing, ([args, message]) => expectUsageError(args, message));
  });

  it('a bad option value or argument', async () => {
    const echo = join(ROOT, 'examples/echo');
    const bad: [string[], RegExp][] = [
      [['serve', echo, '--port', '99999'], /--port: expected 0-65535, got 99999/],
      [['serve', echo, '--store', 'floppy'], /--store: expected sqlite, memory or postgres, got floppy/],
      [['serve', echo, '--store', 'memory', '--retention', '30d'], /--retention: the memory store/],
      [['serve', join(ROOT, 'no-such-agent')], /no-such-agent: no such file or directory/],
      [
        ['serve', echo, '--log-level', 'loud'],
        /--log-level: expected trace, debug, info, warn, error, silent/,
      ],
      [['serve', echo, '--log-format', 'xml'], /--log-format: expected json or pretty, got xml/],
      [['serve', echo, '--shutdown-grace', 'soon'], /--shutdown-grace: /],
      [['serve', echo, '--otlp', 'collector:4318'], /--otlp: /],
      [['card', 'https://example.com/', '--card-version', '2.0'], /--card-version: expected 1\.0 or 0\.3/],
      [['contracts', 'rename', echo], /unknown contracts action "rename"/],
      [['db', 'drop'], /db: unknown action "drop"/],
      [
        ['push', 'requeue', 'abc', '--data-dir', tmpdir()],
        /expected a dead letter id \(a positive integer\), got "abc"/,
      ],
      [['check', 'http://127.0.0.1:9/', '--timeout', 'soon'], /--timeout: expected a positive number/],
      [['check', 'http://127.0.0.1:9/', '--data', '{"type":'], /--data is not valid JSON/],
      [['check', 'ftp://example.com/'], /only http and https agent URLs are supported/],
      [
        ['send', 'http://127.0.0.1:9/', 'hi', '--binding', 'carrier-pigeon'],
        /--binding: expected jsonrpc, rest or grpc/,
      ],
      [['push-config', 'rename', 'http://127.0.0.1:9/', 't1'], /unknown action "rename"/],
      [['push-config', 'delete', 'http://127.0.0.1:9/', 't1', 'c1', 'c2'], /delete: unexpected "c2"/],
      [
        ['send', 'http://127.0.0.1:9/', 'hi', '--push-url', 'ftp://x/'],
        /--push-url: expected an http\(s\) URL/,
      ],
      [['send', 'http://127.0.0.1:9/', 'hi', '--push-token', 't'], /--push-token needs --push-url/],
      [['card', 'https://example.com/', '--token', 't'], /--token is used with --extended only/],
      [['card', 'examples/echo', '--extended'], /--extended: expected a card URL/],
      [['get', 'http://127.0.0.1:9/', 't1', '--history', 'many'], /--history: expected a whole number/],
      [['list', 'not a url'], /is not a URL/],
    ];
    await fourAtATime(bad, ([args, message]) => expectUsageError(args, message));
  });

  it('a failure that is no usage error keeps exit 1', async () => {
    // The command line is right; the definitions it names are not (src/host reports them).
    const run = await concord(['serve', join(ROOT, 'test/host/fixtures/bad/duplicate-id'), '--port', '0']);
    expect(run.code).toBe(1);
  });
});

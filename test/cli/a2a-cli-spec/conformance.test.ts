/**
 * `concord conformance`, a2a-cli SPEC v0.2 §5.1 (A2ACLI_CONFORM_001), through the real `concord`
 * binary: without `--tck`, Concord's own checklist against a live agent, said plainly not to be
 * the A2A TCK; with `--tck <dir>`, the kit's 1.0 runner driven against the agent and its
 * compatibility report turned into PASS / FAIL / SKIP. The real kit cannot be installed where
 * these tests run (no network to GitHub or PyPI), so the kit tests use a stand-in `run_tck.py`
 * written here; see `standInKit`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { startJsonServer, type JsonServer } from '../../client/helpers/json-server.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD, startSpecAgent } from './spec-fixtures.js';

interface Requirement {
  id: string;
  title: string | null;
  level: string | null;
  status: 'PASS' | 'FAIL' | 'SKIP';
  transports: Record<string, string>;
  details: string[];
}

interface Report {
  source: string;
  notice: string | null;
  agent: string;
  level: string | null;
  transports: string[];
  ok: boolean;
  summary: { pass: number; fail: number; skip: number };
  requirements: Requirement[];
  kit: { dir: string; runner: string; arguments: string[]; exitCode: number; report: string } | null;
}

let agent: EchoServer;
let broken: JsonServer;
/** An address nothing answers at any more. */
let gone: string;
const dir = mkdtempSync(join(tmpdir(), 'concord-conformance-'));
beforeAll(async () => {
  agent = await startSpecAgent();
  // An agent the checklist fails: a good card, and every call answered with an internal error.
  const holder = { url: '' };
  broken = await startJsonServer({
    '/.well-known/agent-card.json': () => ({
      body: {
        ...SPEC_CARD,
        supportedInterfaces: [
          { url: `${holder.url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
      },
    }),
    '/rpc': () => ({
      body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'broken on purpose' } },
    }),
  });
  holder.url = broken.url;
  const closed = await startJsonServer({});
  gone = closed.url;
  await closed.close();
});
afterAll(async () => {
  await agent.close();
  await broken.close();
});

describe('conformance without the A2A TCK', () => {
  it("A2ACLI_CONFORM_001: without --tck, runs Concord's checklist against a live agent and says it is not the TCK", async () => {
    const json = await concord(['conformance', '-a', agent.url, '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.source).toBe('concord-checklist');
    expect(report.notice).toMatch(/NOT the A2A TCK/);
    expect(report.notice).toContain('git clone -b 1.0-dev https://github.com/a2aproject/a2a-tck');
    expect(report.kit).toBeNull();
    expect(report.ok).toBe(true);
    expect(report.summary.fail).toBe(0);
    expect(report.summary.pass).toBeGreaterThan(10);
    expect(report.requirements.length).toBe(report.summary.pass + report.summary.fail + report.summary.skip);
    expect(report.transports.some((label) => label.startsWith('JSONRPC 1.0'))).toBe(true);
    expect(json.stderr).toMatch(/^notice: concord conformance: this is NOT the A2A TCK/m);
    expect(json.stderr).toContain('--tck <dir>');

    const text = await concord(['conformance', '-a', agent.url]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Source: concord-checklist$/m);
    expect(text.stdout).toMatch(/^Notice: this is NOT the A2A TCK/m);
    expect(text.stdout).toMatch(/^PASS {2}1 {2}Card served at/m);
    expect(text.stdout).toMatch(/^Failed: 0$/m);
    expect(text.stdout).toMatch(/^Result: PASS$/m);
    expect(text.stderr).toMatch(/NOT the A2A TCK/);
  });

  it('a failing agent exits 1 and names the failed checks', async () => {
    const json = await concord(['conformance', '-a', broken.url, '-o', 'json']);
    expect(json.code, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.source).toBe('concord-checklist');
    expect(report.ok).toBe(false);
    const failed = report.requirements.filter((r) => r.status === 'FAIL');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.details.length > 0)).toBe(true);
    expect(json.stderr).toContain(`warning: the agent failed ${failed.length} of`);

    const text = await concord(['conformance', '-a', broken.url]);
    expect(text.code).toBe(1);
    for (const rule of failed) expect(text.stdout).toContain(`FAIL  ${rule.id}  ${rule.title}`);
    expect(text.stdout).toMatch(/^Result: FAIL$/m);
  });

  it('an agent that cannot be reached exits 3, before any check', async () => {
    const run = await concord(['conformance', '-a', gone, '-o', 'json']);
    expect(run.code).toBe(3);
    expect((JSON.parse(run.stdout) as { error: { code: string } }).error.code).toBe('A2ACLI_ERR_UNREACHABLE');
  });
});

/**
 * A stand-in for the A2A TCK's 1.0 line: a `run_tck.py` taking the real runner's arguments, which
 * records the arguments and the authentication variables it got (recorded.json), prints some
 * output (a leaked token too, when asked: the CLI must redact it), and writes
 * `reports/compatibility.json` and `reports/junitreport.xml` in the format of the kit's
 * compatibility report (summary, per_requirement, per_transport), from `scenario.json`. It is not
 * the kit: these tests show how Concord drives a kit, not what the kit finds.
 */
const STAND_IN = `#!/usr/bin/env python3
import argparse, json, os, sys, time
from pathlib import Path

here = Path(__file__).resolve().parent
parser = argparse.ArgumentParser()
parser.add_argument("--sut-host", required=True)
parser.add_argument("--transport", default=None)
parser.add_argument("--level", choices=["must", "should", "may"], default=None)
parser.add_argument("-v", "--verbose", action="store_true")
parser.add_argument("--verbose-log", action="store_true")
parser.add_argument("pytest_args", nargs="*")
args = parser.parse_args()
(here / "recorded.json").write_text(json.dumps({
    "argv": sys.argv[1:],
    "pid": os.getpid(),
    "cwd": os.getcwd(),
    "auth_type": os.environ.get("A2A_AUTH_TYPE"),
    "auth_token": os.environ.get("A2A_AUTH_TOKEN"),
}))
scenario = json.loads((here / "scenario.json").read_text())
print("Command: python -m pytest tests/compatibility/ --sut-host=" + args.sut_host)
if scenario.get("echo_token"):
    print("header authorization: Bearer " + str(os.environ.get("A2A_AUTH_TOKEN")))
print("stand-in kit: running", file=sys.stderr, flush=True)
if scenario.get("hang"):
    time.sleep(30)
if scenario.get("write_report", True):
    reqs = scenario["per_requirement"]
    counted = [r for r in reqs.values() if r["status"] != "SKIPPED"]
    def pct(level):
        rs = [r for r in counted if level is None or r["level"] == level]
        return "%.1f%%" % (100.0 * sum(r["status"] == "PASS" for r in rs) / len(rs) if rs else 100.0)
    per_transport = {}
    for r in reqs.values():
        for t, s in r["transports"].items():
            c = per_transport.setdefault(t, {"total": 0, "passed": 0, "failed": 0, "skipped": 0})
            c["total"] += 1
            c["passed" if s == "PASS" else "skipped" if s == "SKIPPED" else "failed"] += 1
    report = {
        "summary": {
            "timestamp": "2026-11-29T00:00:00+00:00",
            "sut_url": args.sut_host,
            "spec_version": "1.0",
            "overall_compatibility": pct(None),
            "must_compatibility": pct("MUST"),
            "should_compatibility": pct("SHOULD"),
            "may_compatibility": pct("MAY"),
        },
        "per_requirement": reqs,
        "per_transport": per_transport,
    }
    (here / "reports").mkdir(exist_ok=True)
    (here / "reports" / "compatibility.json").write_text(json.dumps(report, indent=2))
    (here / "reports" / "junitreport.xml").write_text('<?xml version="1.0"?><testsuites/>')
sys.exit(scenario.get("exit", 0))
`;

let kits = 0;
function standInKit(scenario: Record<string, unknown>, script = STAND_IN): string {
  const kit = join(dir, `kit-${++kits}`);
  mkdirSync(join(kit, 'tests', 'compatibility'), { recursive: true });
  writeFileSync(join(kit, 'run_tck.py'), script, { mode: 0o755 });
  writeFileSync(join(kit, 'scenario.json'), JSON.stringify(scenario));
  return kit;
}

function recorded(kit: string): {
  argv: string[];
  pid: number;
  cwd: string;
  auth_type: string | null;
  auth_token: string | null;
} {
  return JSON.parse(readFileSync(join(kit, 'recorded.json'), 'utf8')) as never;
}

const requirement = (
  level: string,
  status: string,
  transports: Record<string, string>,
  errors: string[] = [],
) => ({
  level,
  status,
  transports,
  errors,
  test_ids: [],
});

/** The stand-in kit is a Python script: without python3 these tests cannot run, and say so. */
const hasPython = ((): boolean => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('conformance.test.ts: python3 not found; the stand-in kit tests are skipped');
    return false;
  }
})();

describe.skipIf(!hasPython)('conformance with a kit (a stand-in for the A2A TCK, not the kit itself)', () => {
  const TOKEN = 'tck-s3cret-token-value';

  it('drives the 1.0 runner with --sut-host, --level and --transport, the token in its environment, and reports PASS, FAIL and SKIP', async () => {
    const kit = standInKit({
      exit: 1,
      echo_token: true,
      per_requirement: {
        'CARD-DISC-001': requirement('MUST', 'PASS', { jsonrpc: 'PASS', http_json: 'PASS' }),
        'CORE-SEND-001': requirement('MUST', 'FAIL', { jsonrpc: 'PASS', http_json: 'FAIL' }, [
          'AssertionError: expected a Task, got HTTP 500\nfull traceback',
        ]),
        'CORE-CAP-001': requirement('MUST', 'SKIPPED', { jsonrpc: 'SKIPPED' }),
        'CORE-HIST-003': requirement('SHOULD', 'NOT TESTED', {}),
        'PUSH-CREATE-001': requirement('MUST', 'NOT TESTED', {}),
      },
    });
    const sutHost = agent.url.replace(/\/$/, '');
    const args = [
      'conformance',
      '-a',
      agent.url,
      '--tck',
      kit,
      '--transport',
      'jsonrpc',
      '--transport',
      'rest',
    ];
    const json = await concord([...args, '-o', 'json'], { A2ACLI_BEARER: TOKEN });
    expect(json.code, json.stderr).toBe(1);
    const got = recorded(kit);
    expect(got.argv).toEqual(['--sut-host', sutHost, '--transport', 'jsonrpc,http_json', '--level', 'must']);
    expect(got.cwd).toBe(kit);
    expect(got.auth_type).toBe('bearer');
    expect(got.auth_token).toBe(TOKEN);
    expect(got.argv.join(' ')).not.toContain(TOKEN);

    const report = JSON.parse(json.stdout) as Report;
    expect(report).toMatchObject({
      source: 'a2a-tck',
      notice: null,
      agent: sutHost,
      level: 'must',
      transports: ['jsonrpc', 'http_json'],
      ok: false,
      summary: { pass: 1, fail: 1, skip: 2 },
    });
    expect(report.kit).toMatchObject({
      dir: kit,
      runner: 'python3',
      arguments: got.argv,
      exitCode: 1,
      report: join(kit, 'reports', 'compatibility.json'),
    });
    expect(report.requirements.map((r) => [r.id, r.status])).toEqual([
      ['CARD-DISC-001', 'PASS'],
      ['CORE-SEND-001', 'FAIL'],
      ['CORE-CAP-001', 'SKIP'],
      ['PUSH-CREATE-001', 'SKIP'],
    ]);
    expect(report.requirements[1]!.transports).toEqual({ jsonrpc: 'PASS', http_json: 'FAIL' });
    // The kit's output went to stderr, the leaked token redacted; stdout is the one document.
    expect(json.stderr).toContain('stand-in kit: running');
    expect(json.stderr).toContain('header authorization: Bearer [REDACTED]');
    expect(json.stderr).toContain('warning: the agent failed 1 of 4 requirements: CORE-SEND-001');
    for (const output of [json.stdout, json.stderr]) expect(output).not.toContain(TOKEN);

    const text = await concord(args, { A2ACLI_BEARER: TOKEN });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Source: a2a-tck$/m);
    expect(text.stdout).toMatch(/^Level: must$/m);
    expect(text.stdout).toMatch(/^PASS {2}CARD-DISC-001 \(MUST\) {2}\[jsonrpc PASS, http_json PASS\]$/m);
    expect(text.stdout).toMatch(/^FAIL {2}CORE-SEND-001 \(MUST\) {2}\[jsonrpc PASS, http_json FAIL\]$/m);
    expect(text.stdout).toMatch(/^ {6}AssertionError: expected a Task, got HTTP 500$/m);
    expect(text.stdout).toMatch(/^SKIP {2}CORE-CAP-001 \(MUST\)/m);
    expect(text.stdout).not.toContain('CORE-HIST-003');
    expect(text.stdout).toMatch(/^Result: FAIL$/m);
    expect(text.stdout).not.toMatch(/NOT the A2A TCK/);
    for (const output of [text.stdout, text.stderr]) expect(output).not.toContain(TOKEN);
  });

  it('a passing kit run exits 0; the kit comes from A2ACLI_TCK, --level all passes no level', async () => {
    const kit = standInKit({
      exit: 0,
      per_requirement: {
        'CARD-DISC-001': requirement('MUST', 'PASS', { jsonrpc: 'PASS' }),
        'CORE-HIST-003': requirement('SHOULD', 'PASS', { jsonrpc: 'PASS' }),
      },
    });
    const must = await concord(['conformance', '-a', agent.url, '-o', 'json'], { A2ACLI_TCK: kit });
    expect(must.code, must.stderr).toBe(0);
    expect(recorded(kit)).toMatchObject({
      argv: ['--sut-host', agent.url.replace(/\/$/, ''), '--level', 'must'],
      auth_type: null,
      auth_token: null,
    });
    expect(JSON.parse(must.stdout)).toMatchObject({
      source: 'a2a-tck',
      ok: true,
      summary: { pass: 2, fail: 0 },
    });
    const all = await concord(['conformance', '-a', agent.url, '--level', 'all', '--verbose'], {
      A2ACLI_TCK: kit,
    });
    expect(all.code, all.stderr).toBe(0);
    expect(recorded(kit).argv).toEqual(['--sut-host', agent.url.replace(/\/$/, ''), '-v']);
    expect(all.stdout).toMatch(/^Result: PASS$/m);
  });

  it('a kit that writes no report, or cannot be started, is a failure with a precise message', async () => {
    const silent = standInKit({ exit: 3, write_report: false, per_requirement: {} });
    const crashed = await concord(['conformance', '-a', agent.url, '--tck', silent, '-o', 'json']);
    expect(crashed.code).toBe(1);
    const error = (JSON.parse(crashed.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('CONCORD_ERR_TCK_FAILED');
    expect(error.message).toContain('exited 3 and wrote no report');

    // No uv and no python3 on the PATH.
    const empty = mkdtempSync(join(dir, 'empty-path-'));
    const noPython = await concord(['conformance', '-a', agent.url, '--tck', silent, '-o', 'json'], {
      PATH: empty,
    });
    expect(noPython.code).toBe(1);
    const missing = (JSON.parse(noPython.stdout) as { error: { code: string; message: string } }).error;
    expect(missing.code).toBe('CONCORD_ERR_TCK_UNAVAILABLE');
    expect(missing.message).toContain('neither uv');
    expect(noPython.stderr).toMatch(/^hint: install uv/m);
  });

  it('--timeout stops the kit: A2ACLI_ERR_TIMEOUT, exit 5', async () => {
    const kit = standInKit({ hang: true, per_requirement: {} });
    const run = await concord([
      'conformance',
      '-a',
      agent.url,
      '--tck',
      kit,
      '--timeout',
      '1s',
      '-o',
      'json',
    ]);
    expect(run.code, run.stderr).toBe(5);
    const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
    expect(error).toMatchObject({
      code: 'A2ACLI_ERR_TIMEOUT',
      message: '--timeout 1s expired before the conformance check finished',
    });
    expect(run.stderr).toContain('stand-in kit: running');
    // The runner was stopped, not left behind.
    const { pid } = recorded(kit);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('a --tck that is not a checkout of the 1.0 line is a usage error, exit 2, before the agent is called', async () => {
    const old = standInKit(
      {},
      '#!/usr/bin/env python3\n# parser.add_argument("--sut-url"); parser.add_argument("--category")\n',
    );
    const notKit = mkdtempSync(join(dir, 'not-a-kit-'));
    const cases: [string, RegExp][] = [
      [join(dir, 'no-such-dir'), /no such directory/],
      [notKit, /not an A2A TCK checkout \(no run_tck\.py/],
      [old, /0\.3 line.*branch 1\.0-dev/],
    ];
    for (const [tck, message] of cases) {
      // An unreachable agent: the --tck mistake is reported first.
      const run = await concord(['conformance', '-a', gone, '--tck', tck, '-o', 'json']);
      expect(run.code, run.stderr).toBe(2);
      const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('A2ACLI_ERR_USAGE');
      expect(error.message).toMatch(message);
      expect(error.message).toContain('git clone -b 1.0-dev https://github.com/a2aproject/a2a-tck');
    }
    const level = await concord(['conformance', '-a', agent.url, '--level', 'sometimes']);
    expect(level.code).toBe(2);
  });

  it('help and completion know the command', async () => {
    const help = await concord(['help', 'conformance']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--tck <dir>');
    expect((await concord(['--help'])).stdout).toContain('conformance -a <ref>');
    const bash = await concord(['completion', 'bash']);
    expect(bash.stdout).toMatch(/compgen -W "[^"]*\bconformance\b/);
    expect(bash.stdout).toContain('--tck');
    expect(bash.stdout).toContain('--level');
  });
});

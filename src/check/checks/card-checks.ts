/**
 * The card rules (1, 2, 3, 58, 61): the card is fetched twice from `/.well-known/agent-card.json`
 * (A2A 1.0 §8.2), as a 0.3 client does (no `A2A-Version`) and as a 1.0 client does, each answer is
 * judged as served (status, JSON content type, ETag revalidation when offered) and linted as the
 * card of the version it is for (src/card `lintAgentCard`); the interfaces to exercise and the
 * capability promises are read from both.
 */
import { lintAgentCard } from '../../card/index.js';
import {
  v0_3JsonRpcCodec,
  v1_0Codec,
  type AgentCard,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import type { CheckRecorder } from '../check-report.js';
import { promisesOf, TargetSet, type CardPromises } from '../probes/probe-targets.js';
import {
  describeAnswer,
  describeRequest,
  jsonOf,
  rawExchange,
  type RawAnswer,
  type RawHttpOptions,
  type RawRequest,
} from '../probes/raw-http.js';

/** What the cards told the check. */
export interface CardFacts {
  targets: TargetSet;
  promises: CardPromises;
  /** The canonical card the clients are built on. */
  card: AgentCard;
}

interface Fetched {
  request: RawRequest;
  answer: RawAnswer;
  json: Record<string, unknown>;
}

// Members rules 2 and 3 list as required (A2A 0.3 §5.5; A2A 1.0 §4.4.1), as lint paths.
const REQUIRED_03 =
  /^\/(protocolVersion|name|description|url|preferredTransport|version|capabilities|defaultInputModes|defaultOutputModes|skills(\/\d+\/(id|name|description|tags))?)$/;
const REQUIRED_10 =
  /^\/(name|description|version|capabilities|defaultInputModes|defaultOutputModes|supportedInterfaces(\/\d+\/(url|protocolBinding|protocolVersion))?|skills(\/\d+\/(id|name|description|tags))?)$/;

/**
 * Where the card of `input` is (decision 0019's rule): a URL ending in `.json` is the card;
 * otherwise `.well-known/agent-card.json` under the URL's path, then the pre-0.3 `agent.json`.
 */
function cardUrls(input: string): [URL, URL | undefined] {
  const url = new URL(input);
  if (url.pathname.endsWith('.json')) return [url, undefined];
  const base = new URL(url);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return [new URL('.well-known/agent-card.json', base), new URL('.well-known/agent.json', base)];
}

/** A 0.3 card has `protocolVersion` or `url`, or lacks `supportedInterfaces` (A2A 0.3 §5.5). */
function cardDialectOf(json: Record<string, unknown>): ProtocolVersion {
  return 'protocolVersion' in json || 'url' in json || !('supportedInterfaces' in json) ? '0.3' : '1.0';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function fetchCard(
  rec: CheckRecorder,
  url: URL,
  version: ProtocolVersion,
  http: RawHttpOptions,
): Promise<Fetched | undefined> {
  const request: RawRequest = { method: 'GET', url, headers: { accept: 'application/json' } };
  if (version === '1.0') request.headers!['a2a-version'] = '1.0';
  let answer: RawAnswer;
  try {
    answer = await rawExchange(request, http);
  } catch (error) {
    rec.fail(1, {
      where: 'card',
      expected: 'the card can be fetched',
      sent: describeRequest(request),
      received: (error as Error).message,
    });
    return undefined;
  }
  const evidence = (expected: string) => ({
    where: 'card',
    expected,
    sent: describeRequest(request),
    received: describeAnswer(answer),
  });
  if (answer.status !== 200) {
    rec.fail(1, evidence(`the card is served at ${url.href} with HTTP 200`));
    return undefined;
  }
  const json = jsonOf(answer);
  if (!isObject(json)) {
    rec.fail(1, evidence('the card is a JSON object'));
    return undefined;
  }
  rec.expect(1, answer.mediaType === 'application/json' || answer.mediaType.endsWith('+json'), () =>
    evidence(`the card is served as application/json, not "${answer.mediaType}"`),
  );
  if (answer.headers['cache-control'] === undefined)
    rec.warn(1, evidence('card responses SHOULD carry Cache-Control (A2A 1.0 §8.6)'));
  const etag = answer.headers.etag;
  if (etag !== undefined) {
    const conditional: RawRequest = { ...request, headers: { ...request.headers, 'if-none-match': etag } };
    const again = await rawExchange(conditional, http).catch(() => undefined);
    if (again !== undefined && again.status !== 304)
      rec.warn(1, {
        where: 'card',
        expected: `If-None-Match: ${etag} revalidates with 304 Not Modified`,
        sent: describeRequest(conditional),
        received: describeAnswer(again),
      });
    else if (again !== undefined) rec.pass(1);
  }
  return { request, answer, json };
}

function lint(rec: CheckRecorder, fetched: Fetched, version: ProtocolVersion): void {
  const requiredRule = version === '1.0' ? 3 : 2;
  const required = version === '1.0' ? REQUIRED_10 : REQUIRED_03;
  const evidence = (path: string, message: string) => ({
    where: `card (${version})`,
    expected: `${path || '/'}: ${message}`,
    sent: describeRequest(fetched.request),
    received: describeAnswer(fetched.answer),
  });
  let requiredOk = true;
  let schemaOk = true;
  for (const problem of lintAgentCard(fetched.json, version)) {
    if (problem.severity === 'warning') {
      rec.warn(1, evidence(problem.path, problem.message));
    } else if (required.test(problem.path)) {
      requiredOk = false;
      rec.fail(requiredRule, evidence(problem.path, problem.message));
    } else {
      schemaOk = false;
      rec.fail(1, evidence(problem.path, problem.message));
    }
  }
  if (requiredOk) rec.pass(requiredRule);
  if (schemaOk) rec.pass(1);
}

function decode(json: Record<string, unknown>, version: ProtocolVersion): AgentCard | undefined {
  try {
    return (version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec).decodeAgentCard(json, '');
  } catch {
    return undefined;
  }
}

/** Rule 61: each signature's protected header names alg and kid (verification needs keys: `concord card verify`). */
function checkSignatures(rec: CheckRecorder, json: Record<string, unknown>): void {
  const signatures = Array.isArray(json.signatures) ? json.signatures : [];
  if (signatures.length === 0) {
    rec.skip(61, 'the card is not signed');
    return;
  }
  signatures.forEach((signature, i) => {
    let header: unknown;
    try {
      header = JSON.parse(
        Buffer.from(String((signature as { protected?: unknown }).protected), 'base64url').toString('utf8'),
      );
    } catch {
      header = undefined;
    }
    rec.expect(
      61,
      isObject(header) && typeof header.alg === 'string' && typeof header.kid === 'string',
      () => ({
        where: 'card',
        expected: `signatures/${i}: the protected header is base64url JSON with alg and kid`,
        received: JSON.stringify(signature),
      }),
    );
  });
}

/** Rule 58: interface URLs use HTTPS, except on loopback and private hosts (development). */
function checkHttps(rec: CheckRecorder, targets: TargetSet): void {
  const local =
    /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+)$/i;
  for (const target of targets.targets) {
    const url = new URL(target.url);
    if (url.protocol === 'https:') rec.pass(58);
    else if (local.test(url.hostname))
      rec.skip(58, `plain http on ${url.hostname}, a local address (development)`);
    else rec.fail(58, { where: target.label, expected: 'interfaces reachable from elsewhere use HTTPS' });
  }
}

/** Fetches and judges the cards; undefined when no card could be read at all. */
export async function checkCards(
  rec: CheckRecorder,
  input: string,
  http: RawHttpOptions,
): Promise<CardFacts | undefined> {
  const [wellKnown, legacy] = cardUrls(input);
  let url = wellKnown;
  if (legacy !== undefined) {
    const probe = await rawExchange(
      { method: 'GET', url, headers: { accept: 'application/json' } },
      http,
    ).catch(() => undefined);
    if (probe?.status === 404) {
      const old = await rawExchange(
        { method: 'GET', url: legacy, headers: { accept: 'application/json' } },
        http,
      ).catch(() => undefined);
      if (old?.status === 200) {
        rec.fail(1, {
          where: 'card',
          expected: `the card is served at ${url.href}, not only at the pre-0.3 ${legacy.href}`,
        });
        url = legacy;
      }
    }
  }
  const card03 = await fetchCard(rec, url, '0.3', http);
  const card10 = await fetchCard(rec, url, '1.0', http);
  if (card03 === undefined && card10 === undefined) return undefined;
  const targets = new TargetSet();
  for (const fetched of [card10, card03]) if (fetched !== undefined) targets.addCard(fetched.json);
  const versions = targets.versions();
  if (versions.has('0.3') && card03 !== undefined) lint(rec, card03, '0.3');
  if (versions.has('1.0') && card10 !== undefined) lint(rec, card10, '1.0');
  if (versions.size === 0) lint(rec, (card10 ?? card03)!, cardDialectOf((card10 ?? card03)!.json));
  const main = (card10 ?? card03)!;
  const promises = promisesOf(main.json);
  if (card03 !== undefined && card10 !== undefined) {
    const other = promisesOf(card03.json);
    for (const flag of ['streaming', 'pushNotifications', 'extendedCard'] as const) {
      rec.expect(6, other[flag] === promises[flag], () => ({
        where: 'card',
        expected: `the 0.3 and 1.0 cards promise the same ${flag} (${String(other[flag])} vs ${String(promises[flag])})`,
      }));
    }
  }
  checkSignatures(rec, main.json);
  checkHttps(rec, targets);
  const card = (card10 === undefined ? undefined : decode(card10.json, cardDialectOf(card10.json))) ??
    (card03 === undefined ? undefined : decode(card03.json, cardDialectOf(card03.json))) ?? {
      name: String(main.json.name ?? 'agent'),
      description: '',
      version: '',
      supportedInterfaces: [],
      capabilities: {},
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [],
    };
  return { targets, promises, card };
}

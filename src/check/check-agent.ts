/**
 * `checkAgent(url)`: the conformance self-check of a live agent (decision 0046).
 * It reads the card, then exercises every interface the card declares that Concord speaks
 * (JSON-RPC and HTTP+JSON, 0.3 and 1.0, on the wire; gRPC through the client's transport), using
 * only what the card and the protocol guarantee,
 * and returns a verdict per rule of the conformance checklist (rules.ts), with the evidence of failures.
 */
import type { NetworkPolicy } from '../client/index.js';
import type { Part, ProtocolVersion } from '../protocol/index.js';
import { checkCards } from './checks/card-checks.js';
import { checkOptionalOperations, checkPush } from './checks/capability-checks.js';
import { CheckContext } from './probes/check-context.js';
import { CheckRecorder, type CheckReport } from './check-report.js';
import { checkConsistency } from './checks/consistency-checks.js';
import { checkInputValidation } from './checks/input-checks.js';
import { checkJsonRpc } from './checks/jsonrpc-checks.js';
import { checkListTasks } from './checks/list-checks.js';
import type { ProbeTarget } from './probes/probe-targets.js';
import { ruleById } from './rules.js';
import { checkStream, checkSubscribeFinished } from './checks/stream-checks.js';
import { checkGrpcInterface } from './checks/grpc-checks.js';
import { guarded, thrownMessage } from './probes/guarded-step.js';
import { checkTaskLife } from './checks/task-checks.js';
import {
  checkAuthentication,
  checkExtensions,
  checkTenant,
  checkVersionNegotiation,
} from './checks/version-checks.js';
import { checkWaitingTask } from './checks/wait-checks.js';

/**
 * Options of a check. The network policy is the client's (`allowPrivateNetworks`,
 * `allowedHosts`): by default no loopback, private or link-local target is contacted, the card's
 * own URL included (A2A 1.0 §13.2).
 */
export interface CheckOptions extends Pick<NetworkPolicy, 'allowPrivateNetworks' | 'allowedHosts'> {
  /** A bearer token presented on every call (never on the public card fetch). */
  token?: string | undefined;
  /** The text sent to create tasks (default "Hello from concord check"). */
  text?: string | undefined;
  /**
   * A data part sent instead of the text, for agents that take structured input only (the
   * dealer's AAP requests). `mediaType` goes with it when given.
   */
  data?: { data: unknown; mediaType?: string } | undefined;
  /** A text that keeps a task working until it is canceled; enables rules 20, 34 and 36. */
  waitText?: string | undefined;
  /** Per-request timeout, and how long a stream may take to finish, in ms (default 10 000). */
  timeoutMs?: number | undefined;
}

function untouched(targets: ProbeTarget[], waitText: string | undefined) {
  const versions = new Set(targets.map((t) => t.version));
  const has = (binding: string, version: ProtocolVersion) =>
    targets.some((t) => t.binding === binding && t.version === version);
  return (id: number): string => {
    const rule = ruleById(id);
    if (targets.length === 0)
      return 'the card declares no interface concord check speaks (JSON-RPC or HTTP+JSON, 0.3 or 1.0)';
    if (!rule.versions.some((v) => versions.has(v)))
      return `applies to A2A ${rule.versions.join(' and ')}; the card declares no such interface`;
    if (id === 62 && !has('HTTP+JSON', '0.3')) return 'the card declares no HTTP+JSON 0.3 interface';
    if (id === 63 && !has('HTTP+JSON', '1.0')) return 'the card declares no HTTP+JSON 1.0 interface';
    if ([11, 12, 13, 14, 30, 47].includes(id) && !targets.some((t) => t.binding === 'JSONRPC'))
      return 'the card declares no JSON-RPC interface';
    if (id === 48 && !has('HTTP+JSON', '1.0')) return 'the card declares no HTTP+JSON 1.0 interface';
    if (id === 49) return 'the card declares no gRPC interface';
    if ([20, 34, 36].includes(id) && waitText === undefined)
      return 'needs a task that stays open: pass --wait-text with a text the agent answers by working until canceled';
    return 'not exercised against this agent';
  };
}

/** The part the run's messages carry. */
function messageOf(options: CheckOptions): Part {
  if (options.data === undefined) return { text: options.text ?? 'Hello from concord check' };
  const part: Part = { data: options.data.data };
  if (options.data.mediaType !== undefined) part.mediaType = options.data.mediaType;
  return part;
}

/** Checks the agent behind `url` (its base URL, or its card's URL) and returns the report. */
export async function checkAgent(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const http = {
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    timeoutMs,
  };
  const recorder = new CheckRecorder();
  let cards: Awaited<ReturnType<typeof checkCards>>;
  try {
    cards = await checkCards(recorder, url, http);
  } catch (error) {
    recorder.fail(1, {
      where: 'card',
      expected: 'a card the check can read',
      received: thrownMessage(error),
    });
    cards = undefined;
  }
  if (cards === undefined) return recorder.report(url, [], () => 'the agent card could not be read');
  const { targets, promises, card } = cards;
  const message = messageOf(options);
  for (const unusable of targets.unusable) {
    const version = unusable.version === '1.0' || unusable.version === '0.3' ? unusable.version : undefined;
    if (unusable.binding === 'GRPC' && version !== undefined) {
      // gRPC interfaces go through the client's gRPC transport (decision 0073).
      const where = `GRPC ${version} ${unusable.url}`;
      await guarded(recorder, { rule: 49, where, what: 'gRPC' }, () =>
        checkGrpcInterface(recorder, card, unusable.url, version, {
          message,
          timeoutMs,
          allowPrivateNetworks: http.allowPrivateNetworks,
          ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
          ...(options.token === undefined ? {} : { token: options.token }),
        }),
      );
      continue;
    }
    const why = `${unusable.binding} ${unusable.version} at ${unusable.url}: concord check speaks JSON-RPC, HTTP+JSON and gRPC, 0.3 and 1.0`;
    recorder.skip(unusable.binding === 'GRPC' ? 49 : 5, why);
  }
  const run = {
    message,
    timeoutMs,
    ...(options.waitText === undefined ? {} : { waitText: options.waitText }),
  };
  const settings = options.token === undefined ? { http } : { http, token: options.token };
  const ctx = new CheckContext(run, settings, promises, targets.targets, card, recorder);
  const list = targets.targets;
  // Each step guarded: a throw fails the step's rule and the run goes on (guarded-step.ts).
  const step = (target: ProbeTarget | undefined, rule: number, what: string, fn: () => unknown) =>
    guarded(recorder, { rule, where: target?.label ?? 'all interfaces', what }, fn);
  try {
    for (const target of list)
      await step(target, 56, 'authentication', () => checkAuthentication(ctx, target));
    if (promises.requiresAuth && options.token === undefined) {
      const reason = 'the card requires credentials: pass --token';
      return recorder.report(
        url,
        list.map((t) => t.label),
        () => reason,
      );
    }
    for (const target of list) {
      const core = target.version === '1.0' ? 10 : 9;
      await step(target, core, 'task life', () => checkTaskLife(ctx, target));
      const task = ctx.facts(target).task;
      if (target.version === '1.0')
        await step(target, 26, 'ListTasks', () => checkListTasks(ctx, target, task));
      if (promises.streaming) {
        await step(target, 29, 'stream', () => checkStream(ctx, target));
        await step(target, 37, 'subscribe', () => checkSubscribeFinished(ctx, target));
      }
      await step(target, 6, 'push', () => checkPush(ctx, target, task));
      await step(target, 40, 'optional operation', () => checkOptionalOperations(ctx, target, task));
      await step(target, 50, 'A2A-Version', () => checkVersionNegotiation(ctx, target, list));
      await step(target, 53, 'extension', () => checkExtensions(ctx, target));
      await step(target, 55, 'tenant', () => checkTenant(ctx, target));
      const waitText = options.waitText;
      if (waitText !== undefined)
        await step(target, 20, 'open-task', () => checkWaitingTask(ctx, target, waitText));
    }
    // Invalid input last: an agent that wrongly accepts it may store tasks that later answers
    // (ListTasks) would carry, and those must not be blamed on other rules.
    for (const target of list) {
      if (target.binding === 'JSONRPC')
        await step(target, 12, 'JSON-RPC envelope', () => checkJsonRpc(ctx, target));
      await step(target, 59, 'input validation', () => checkInputValidation(ctx, target));
    }
    await step(undefined, 8, 'cross-interface', () => checkConsistency(ctx, list));
  } finally {
    ctx.close();
  }
  return recorder.report(
    url,
    list.map((t) => t.label),
    untouched(list, options.waitText),
  );
}

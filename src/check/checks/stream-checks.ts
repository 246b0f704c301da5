/**
 * A streamed send of the text, read raw (rules 29-33, 35, 38): HTTP 200 `text/event-stream`, one
 * `data:` line of JSON per event, JSON-RPC events echoing the request id, each event a typed
 * result (0.3) or StreamResponse (1.0), a Message stream of one Message, a task stream that starts
 * with the Task, closes at the end (0.3: after `final: true`), and artifact chunks that use
 * `append` / `lastChunk` consistently. Then SubscribeToTask on the finished task (rule 37).
 */
import { isInterruptedState, isTerminalState, type StreamResponse } from '../../protocol/index.js';
import type { CheckContext } from '../probes/check-context.js';
import type { ProbeTarget } from '../probes/probe-targets.js';
import { jsonRpcProblem } from '../probes/envelope-checks.js';
import {
  describeProblems,
  timestampProblems,
  v03ShapeProblems,
  v10ShapeProblems,
} from '../probes/shape-checks.js';
import { SseFrameReader, type SseFrame } from '../probes/sse-frames.js';
import { expectClientError, userMessage } from '../probes/judging.js';
import { WireProbe } from '../probes/wire-probe.js';

/** How long a stream may stay open after its last event (terminal state or Message). */
const CLOSE_GRACE_MS = 3_000;

function stateOf(event: StreamResponse): string | undefined {
  if ('task' in event) return event.task.status.state;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  return undefined;
}

/** Rule 38 over a sequence of events: append only onto an open artifact of the same id. */
function chunkProblem(events: StreamResponse[]): string | undefined {
  const open = new Set<string>();
  const closed = new Set<string>();
  for (const event of events) {
    if ('task' in event) for (const a of event.task.artifacts ?? []) open.add(a.artifactId);
    if (!('artifactUpdate' in event)) continue;
    const { artifact, append, lastChunk } = event.artifactUpdate;
    const id = artifact.artifactId;
    if (append === true && !open.has(id)) return `append:true on artifact ${id} before any chunk of it`;
    if (append === true && closed.has(id)) return `append:true on artifact ${id} after its lastChunk`;
    open.add(id);
    if (lastChunk === true) closed.add(id);
  }
  return undefined;
}

/** Streams the text and judges the stream; returns the decoded events. */
export async function checkStream(ctx: CheckContext, target: ProbeTarget): Promise<StreamResponse[]> {
  const rec = ctx.recorder;
  const probe = ctx.probe(target);
  const v10 = target.version === '1.0';
  const sent = probe.sendRequest({ message: userMessage(ctx) }, true);
  const frames: SseFrame[] = [];
  const events: StreamResponse[] = [];
  const problems: { rule: number; text: string }[] = [];
  const reader = new SseFrameReader();
  // 0.3 JSON-RPC: the raw `final` of each status-update, by event index (the model drops it).
  const finals = new Map<number, boolean>();
  let ended = false;
  const { exchange, reading } = await ctx.call(target, sent.request, undefined, (chunk, control) => {
    for (const frame of reader.push(chunk)) {
      frames.push(frame);
      let json: unknown;
      try {
        json = JSON.parse(frame.data);
      } catch {
        problems.push({ rule: 29, text: `event ${frames.length} is not JSON: ${frame.data.slice(0, 200)}` });
        continue;
      }
      let value = json;
      if (target.binding === 'JSONRPC') {
        const bad = jsonRpcProblem(json, sent.id ?? null);
        if (bad !== undefined) problems.push({ rule: v10 ? 11 : 30, text: `event ${frames.length}: ${bad}` });
        value = (json as { result?: unknown }).result;
      }
      const shape = v10
        ? v10ShapeProblems(value, ['task', 'message', 'statusUpdate', 'artifactUpdate'])
        : target.binding === 'JSONRPC'
          ? v03ShapeProblems(value, ['task', 'message', 'status-update', 'artifact-update'])
          : [];
      if (shape.length > 0)
        problems.push({ rule: v10 ? 31 : 30, text: `event ${frames.length}: ${describeProblems(shape)}` });
      if (v10) {
        const times = timestampProblems(value);
        if (times.length > 0)
          problems.push({ rule: 17, text: `event ${frames.length}: ${describeProblems(times)}` });
      }
      const raw = value as { kind?: unknown; final?: unknown } | undefined;
      if (!v10 && raw?.kind === 'status-update') finals.set(events.length, raw.final === true);
      try {
        const event = probe.codec.decodeStreamResponse(value, '');
        events.push(event);
        const state = stateOf(event);
        const last =
          'message' in event ||
          (state !== undefined && (isTerminalState(state as never) || state === 'TASK_STATE_INPUT_REQUIRED'));
        if (last) ended = true;
        if (last) control.within(CLOSE_GRACE_MS);
      } catch (error) {
        problems.push({
          rule: v10 ? 31 : 30,
          text: `event ${frames.length} does not decode: ${(error as Error).message}`,
        });
      }
    }
  });
  const evidence = (expected: string) => ({ where: target.label, expected, ...WireProbe.evidence(exchange) });
  const answer = exchange.answer;
  if (answer === undefined || answer.status !== 200 || answer.mediaType !== 'text/event-stream') {
    // The card says streaming: true, so this is also a capability that does not work (rule 6).
    rec.fail(29, evidence('a streaming send answers HTTP 200 text/event-stream'));
    rec.fail(6, evidence('capabilities.streaming is true, so SendStreamingMessage streams'));
    ctx.outcome(target, 'stream', reading);
    return [];
  }
  ctx.outcome(target, 'stream', { kind: 'result', value: null });
  rec.pass(6);
  const multi = frames.filter((f) => f.dataLines !== 1);
  rec.expect(29, multi.length === 0, () =>
    evidence(`one data: line per event; event(s) with ${multi.map((f) => f.dataLines).join(', ')} lines`),
  );
  if (frames.length > 0 && frames.every((f) => f.id === undefined))
    rec.warn(
      29,
      evidence(
        'SSE id: fields (not required by A2A) let a client resume with Last-Event-ID; this stream has none',
      ),
    );
  for (const rule of [11, 17, 29, 30, 31]) {
    const mine = problems.filter((p) => p.rule === rule);
    if (rule === 11 && target.binding !== 'JSONRPC') continue;
    if ((rule === 17 || rule === 31 || rule === 11) && !v10) continue;
    if (rule === 30 && (v10 || target.binding !== 'JSONRPC')) continue;
    rec.expect(rule, mine.length === 0, () => evidence(mine.map((p) => p.text).join('; ')));
  }
  const first = events[0];
  if (first !== undefined && 'message' in first) {
    rec.expect(32, events.length === 1 && answer.ended === 'closed', () =>
      evidence('a Message stream carries exactly one Message, then closes'),
    );
    for (const rule of [33, 35, 38]) rec.skip(rule, 'the agent answered the streamed text with a Message');
    return events;
  }
  if (first === undefined && frames.length === 0) {
    rec.fail(33, evidence('a task stream starts with the Task; this one carried no event'));
    return events;
  }
  if (first === undefined) {
    // Nothing decoded: the event rules above (30 / 31) say why; the order rules cannot be judged.
    for (const rule of [32, 33, 35, 38]) rec.skip(rule, 'no event of the stream could be read');
    return events;
  }
  rec.skip(32, 'the agent answered the streamed text with a task');
  rec.expect(33, 'task' in first, () => evidence('a task stream starts with the Task'));
  const lastState = [...events]
    .reverse()
    .map(stateOf)
    .find((s) => s !== undefined);
  if (v10) {
    if (lastState !== undefined && isTerminalState(lastState as never))
      rec.expect(35, answer.ended === 'closed', () =>
        evidence(`the stream closes once the task is ${lastState}`),
      );
    else if (!ended) rec.skip(35, `the task did not finish within ${ctx.run.timeoutMs} ms`);
  } else if (target.binding === 'JSONRPC') {
    // Digest §12 item 9: final:true on the terminal or interrupted status, then the stream closes.
    const closing = [...finals.keys()].filter((i) => isEnd(events[i]));
    const finalAt = [...finals].filter(([, final]) => final).map(([i]) => i);
    if (closing.length > 0 || finalAt.length > 0) {
      const ok =
        closing.every((i) => finals.get(i) === true) &&
        finalAt.length > 0 &&
        finalAt[0] === events.length - 1 &&
        answer.ended === 'closed';
      rec.expect(30, ok, () =>
        evidence(
          'the terminal status update has final: true, it is the last event, and the stream then closes',
        ),
      );
    }
  }
  const chunk = chunkProblem(events);
  if (events.some((e) => 'artifactUpdate' in e))
    rec.expect(38, chunk === undefined, () => evidence(chunk ?? ''));
  else rec.skip(38, 'the streamed text produced no artifact updates');
  return events;
}

function isEnd(event: StreamResponse | undefined): boolean {
  const s = event === undefined ? undefined : stateOf(event);
  return s !== undefined && (isTerminalState(s as never) || isInterruptedState(s as never));
}

/** Rule 37: SubscribeToTask on a finished task is UnsupportedOperationError (1.0). */
export async function checkSubscribeFinished(ctx: CheckContext, target: ProbeTarget): Promise<void> {
  const task = ctx.facts(target).task;
  if (target.version !== '1.0') return;
  if (task === undefined || !isTerminalState(task.status.state)) {
    ctx.recorder.skip(37, 'no finished task to subscribe to');
    return;
  }
  const outcome = await ctx.viaClient(target, async (c) => {
    const seen: StreamResponse[] = [];
    for await (const event of c.subscribeToTask({ id: task.id })) seen.push(event);
    return seen;
  });
  ctx.outcome(target, 'subscribe-finished', outcome);
  expectClientError(
    ctx,
    target,
    37,
    outcome,
    'UnsupportedOperationError',
    `SubscribeToTask of a ${task.status.state} task`,
  );
}

/**
 * The live view on a terminal: the progress line is drawn only at a line start and erased before
 * any output, so the screen a user ends up with is exactly the plain (pipe) output, chunks that
 * leave a line open included. The child-process tests cover the pipe output itself.
 */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { LiveView } from '../../src/cli/calls/live-view.js';
import type { StreamResponse } from '../../src/protocol/index.js';

function fakeIo(tty: boolean): CliIo & { raw: string } {
  const io = {
    raw: '',
    write(text: string) {
      io.raw += text;
    },
    err() {},
    tty,
    color: false,
  };
  return io;
}

/** What a terminal shows: `\r\x1b[2K` erases the current line. */
const ERASE = '\r\x1b[2K';
function screen(raw: string): string {
  let out = '';
  raw.split(ERASE).forEach((piece, index) => {
    if (index > 0) out = out.slice(0, out.lastIndexOf('\n') + 1);
    out += piece;
  });
  return out;
}

const ids = { taskId: 't1', contextId: 'c1' };
const events: StreamResponse[] = [
  { task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } },
  {
    statusUpdate: {
      ...ids,
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'thinking' }] },
      },
    },
  },
  { artifactUpdate: { ...ids, artifact: { artifactId: 'a', name: 'answer', parts: [{ text: 'Hel' }] } } },
  { artifactUpdate: { ...ids, append: true, artifact: { artifactId: 'a', parts: [{ text: 'lo' }] } } },
  { artifactUpdate: { ...ids, append: true, artifact: { artifactId: 'a', parts: [{ text: ', world\n' }] } } },
  { artifactUpdate: { ...ids, artifact: { artifactId: 'b', name: 'data', parts: [{ data: { n: 1 } }] } } },
  { statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } },
];

async function render(tty: boolean): Promise<{ raw: string; state: string | undefined }> {
  const io = fakeIo(tty);
  const view = new LiveView(io, 'http://127.0.0.1:4000/');
  view.startProgress();
  for (const event of events) {
    view.event(event);
    await new Promise((r) => setTimeout(r, 5));
  }
  const state = view.finish();
  return { raw: io.raw, state };
}

describe('LiveView', () => {
  it('writes plain lines in a pipe: statuses, chunks continued in place, the final state', async () => {
    const { raw, state } = await render(false);
    expect(state).toBe('TASK_STATE_COMPLETED');
    expect(raw).not.toContain('\x1b');
    const lines = raw.split('\n');
    expect(lines[0]).toBe('task t1 · context c1');
    expect(lines[1]).toMatch(/^\[\d+\.\ds\] submitted$/);
    expect(lines[2]).toMatch(/^\[\d+\.\ds\] working: thinking$/);
    expect(lines.slice(3, 9)).toEqual(['── answer ──', 'Hello, world', '── data ──', '{', '  "n": 1', '}']);
    expect(lines[9]).toMatch(/^✔ completed in \d+\.\ds$/);
  });

  it('on a terminal, draws progress only between lines and leaves the same screen as the pipe', async () => {
    const tty = await render(true);
    const pipe = await render(false);
    expect(tty.raw).toContain('… submitted · ');
    expect(tty.raw).toContain(ERASE);
    const normalise = (s: string) => s.replace(/\d+\.\ds/g, 'T');
    expect(normalise(screen(tty.raw))).toBe(normalise(pipe.raw));
    // Never drawn while a chunk had left its line open ("Hel" ... "lo").
    expect(tty.raw).toMatch(/Hello, world/);
  });
});

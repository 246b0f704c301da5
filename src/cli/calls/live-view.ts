/**
 * The live, human view of a task while it runs (`send`, `send --stream`, `subscribe`): each
 * status change as a line with the elapsed time, artifact text written as it arrives (appended
 * chunks continue in place), and the final state on a line of its own. On a terminal a progress
 * line (state and elapsed time) is redrawn below the output while the task runs; in a pipe or a
 * file only plain lines are written, so logs stay readable.
 */
import type {
  Artifact,
  Message,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
} from '../../protocol/index.js';
import type { CliIo } from '../cli-io.js';
import { artifactHeading, messageText, partText, stateWord } from './task-text.js';

const FINAL: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

const COLOR = { green: 32, red: 31, yellow: 33, dim: 2 } as const;

/** Formats milliseconds as `0.4s`, `12.3s` or `2m05s`. */
export function elapsedText(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** Renders one task's events as they arrive. */
export class LiveView {
  /** The task's id, once an event named it. */
  taskId: string | undefined;
  /** The task's context, once an event named it. */
  contextId: string | undefined;
  /** The last state seen. */
  state: TaskState | undefined;

  private readonly started = performance.now();
  private readonly artifacts = new Set<string>();
  private atLineStart = true;
  private progressShown = false;
  private ticker: NodeJS.Timeout | undefined;
  private statusNote = '';
  private replied = false;

  /** `agentUrl` is used in the hint printed when the task waits for input. */
  constructor(
    private readonly io: CliIo,
    private readonly agentUrl: string,
  ) {}

  /** Starts redrawing the progress line (terminals only). */
  startProgress(): void {
    if (!this.io.tty || this.ticker !== undefined) return;
    this.ticker = setInterval(() => this.drawProgress(), 250);
    this.ticker.unref();
    this.drawProgress();
  }

  /** One streamed event. */
  event(event: StreamResponse): void {
    if ('task' in event) this.task(event.task);
    else if ('statusUpdate' in event) {
      this.identify(event.statusUpdate.taskId, event.statusUpdate.contextId);
      this.status(event.statusUpdate.status);
    } else if ('artifactUpdate' in event) {
      this.identify(event.artifactUpdate.taskId, event.artifactUpdate.contextId);
      this.artifact(event.artifactUpdate);
    } else this.message(event.message);
  }

  /** A task snapshot: artifacts not shown yet, then its status. */
  task(task: Task): void {
    this.identify(task.id, task.contextId);
    for (const artifact of task.artifacts ?? []) {
      if (!this.artifacts.has(artifact.artifactId)) this.artifact({ artifact });
    }
    this.status(task.status);
  }

  /** A direct reply (no task). */
  message(message: Message): void {
    this.replied = true;
    this.line(`${this.paint('agent:', 'dim')} ${messageText(message)}`);
  }

  /** Stops the progress line and prints the final state; returns the state the task ended in. */
  finish(): TaskState | undefined {
    this.stopProgress();
    if (!this.atLineStart) this.io.write('\n');
    this.atLineStart = true;
    const took = elapsedText(performance.now() - this.started);
    const state = this.state;
    if (state === undefined) {
      if (!this.replied) this.io.write(`stream ended after ${took} without a task state\n`);
      return undefined;
    }
    const note = this.statusNote === '' ? '' : `: ${this.statusNote}`;
    const word = stateWord(state);
    if (state === 'TASK_STATE_COMPLETED') this.io.write(`${this.paint(`✔ ${word}`, 'green')} in ${took}\n`);
    else if (state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED') {
      this.io.write(`${this.paint(`? ${word}`, 'yellow')} after ${took}${note}\n`);
      if (state === 'TASK_STATE_INPUT_REQUIRED' && this.taskId !== undefined) {
        this.io.write(
          `  reply: concord send ${this.agentUrl} "<your answer>" --task ${this.taskId} --context ${this.contextId ?? ''}\n`,
        );
      }
    } else if (FINAL.has(state)) this.io.write(`${this.paint(`✘ ${word}`, 'red')} after ${took}${note}\n`);
    else {
      this.io.write(`${this.paint(`… ${word}`, 'yellow')} after ${took}: the task goes on\n`);
      if (this.taskId !== undefined)
        this.io.write(`  follow: concord subscribe ${this.agentUrl} ${this.taskId}\n`);
    }
    return state;
  }

  /** Stops redrawing and erases the progress line. */
  stopProgress(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.clearProgress();
  }

  private identify(taskId: string, contextId: string): void {
    if (this.taskId !== undefined) return;
    this.taskId = taskId;
    this.contextId = contextId;
    this.line(this.paint(`task ${taskId} · context ${contextId}`, 'dim'));
  }

  private status(status: TaskStatus): void {
    const note = messageText(status.message);
    if (status.state === this.state && (note === '' || note === this.statusNote)) return;
    this.state = status.state;
    this.statusNote = note;
    // Final states are shown by finish(), once, prominently.
    if (FINAL.has(status.state)) return;
    const at = this.paint(`[${elapsedText(performance.now() - this.started)}]`, 'dim');
    this.line(`${at} ${stateWord(status.state)}${note === '' ? '' : `: ${note}`}`);
  }

  private artifact(update: Pick<TaskArtifactUpdateEvent, 'artifact' | 'append'>): void {
    const artifact: Artifact = update.artifact;
    const continues = update.append === true && this.artifacts.has(artifact.artifactId);
    this.artifacts.add(artifact.artifactId);
    if (!continues) this.line(this.paint(artifactHeading(artifact), 'dim'));
    this.write(artifact.parts.map(partText).join(''));
  }

  /** Writes a line of its own (after a newline when a chunk left the line open). */
  private line(text: string): void {
    this.write(`${this.atLineStart ? '' : '\n'}${text}\n`);
  }

  /** Writes output, keeping the progress line below it. */
  private write(text: string): void {
    if (text === '') return;
    this.clearProgress();
    this.io.write(text);
    this.atLineStart = text.endsWith('\n');
    this.drawProgress();
  }

  /** Redraws the progress line; only at the start of a line, so a chunk's open line stays intact. */
  private drawProgress(): void {
    if (this.ticker === undefined || !this.atLineStart) return;
    this.clearProgress();
    const state = this.state === undefined ? 'connecting' : stateWord(this.state);
    this.io.write(this.paint(`… ${state} · ${elapsedText(performance.now() - this.started)}`, 'dim'));
    this.progressShown = true;
  }

  private clearProgress(): void {
    if (!this.progressShown) return;
    this.io.write('\r\x1b[2K');
    this.progressShown = false;
  }

  private paint(text: string, color: keyof typeof COLOR): string {
    return this.io.color ? `\x1b[${COLOR[color]}m${text}\x1b[0m` : text;
  }
}

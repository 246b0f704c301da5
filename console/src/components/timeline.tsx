/**
 * A task's stream as it arrives (A2A 1.0 §3.1.2, §4.2): each status change with its state and
 * message, each artifact with its chunks appended in place (`append`), messages, and the
 * console's own notes (what was sent, what a cancel answered). The list sits in a polite live
 * region so a screen reader hears events without losing its place.
 */
import type { Message, StreamResponse } from '../api/a2a';
import type { Part } from '../../../src/protocol/model';
import { Json, StateBadge } from './common';

/** One line of the timeline. */
export type TimelineEntry =
  | { kind: 'sent'; parts: Part[] }
  | { kind: 'task'; taskId: string; state: string }
  | { kind: 'status'; state: string; parts: Part[] }
  | { kind: 'artifact'; artifactId: string; name: string | undefined; parts: Part[]; done: boolean }
  | { kind: 'message'; role: Message['role']; parts: Part[] }
  | { kind: 'note'; text: string; state?: string };

/** The entries after `event`: an artifact chunk joins its artifact, anything else is a new line. */
export function addEvent(entries: readonly TimelineEntry[], event: StreamResponse): TimelineEntry[] {
  if ('task' in event) {
    return [...entries, { kind: 'task', taskId: event.task.id, state: event.task.status.state }];
  }
  if ('statusUpdate' in event) {
    const { status } = event.statusUpdate;
    return [...entries, { kind: 'status', state: status.state, parts: status.message?.parts ?? [] }];
  }
  if ('artifactUpdate' in event) {
    const { artifact, append, lastChunk } = event.artifactUpdate;
    const at = entries.findIndex((e) => e.kind === 'artifact' && e.artifactId === artifact.artifactId);
    const previous = at === -1 ? undefined : entries[at];
    if (append === true && previous?.kind === 'artifact') {
      const joined: TimelineEntry = {
        ...previous,
        parts: [...previous.parts, ...artifact.parts],
        done: lastChunk === true,
      };
      return entries.map((e, index) => (index === at ? joined : e));
    }
    return [
      ...entries,
      {
        kind: 'artifact',
        artifactId: artifact.artifactId,
        name: artifact.name,
        parts: artifact.parts,
        done: lastChunk !== false,
      },
    ];
  }
  if ('message' in event) {
    return [...entries, { kind: 'message', role: event.message.role, parts: event.message.parts }];
  }
  return [...entries];
}

/** The task, context and state an event tells of (only what it names). */
export function whereOf(event: StreamResponse): { taskId?: string; contextId?: string; state?: string } {
  const found =
    'task' in event
      ? { taskId: event.task.id, contextId: event.task.contextId, state: event.task.status.state }
      : 'statusUpdate' in event
        ? { ...event.statusUpdate, state: event.statusUpdate.status.state }
        : 'artifactUpdate' in event
          ? event.artifactUpdate
          : event.message;
  const where: { taskId?: string; contextId?: string; state?: string } = {};
  if (found.taskId !== undefined) where.taskId = found.taskId;
  if (found.contextId !== undefined) where.contextId = found.contextId;
  if ('state' in found) where.state = found.state;
  return where;
}

export function Timeline({ entries }: { entries: readonly TimelineEntry[] }) {
  return (
    <section class="events" aria-labelledby="timeline-heading" aria-live="polite">
      <h2 id="timeline-heading">Events</h2>
      {entries.length === 0 ? <p class="muted">Nothing sent yet.</p> : null}
      <ol class="timeline">
        {entries.map((entry, index) => (
          <li key={index}>
            <Entry entry={entry} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function Entry({ entry }: { entry: TimelineEntry }) {
  switch (entry.kind) {
    case 'sent':
      return (
        <>
          <strong>Sent</strong>
          <Parts parts={entry.parts} />
        </>
      );
    case 'task':
      return (
        <>
          <strong>Task</strong> <code>{entry.taskId}</code> <StateBadge state={entry.state} />
        </>
      );
    case 'status':
      return (
        <>
          <strong>Status</strong> <StateBadge state={entry.state} />
          <Parts parts={entry.parts} />
        </>
      );
    case 'artifact':
      return (
        <>
          <strong>Artifact</strong> {entry.name ?? <code>{entry.artifactId}</code>}
          {entry.done ? null : <span class="muted"> (more to come)</span>}
          <Parts parts={entry.parts} />
        </>
      );
    case 'message':
      return (
        <>
          <strong>{entry.role === 'ROLE_AGENT' ? 'Agent message' : 'Message'}</strong>
          <Parts parts={entry.parts} />
        </>
      );
    case 'note':
      return (
        <>
          {entry.text} {entry.state === undefined ? null : <StateBadge state={entry.state} />}
        </>
      );
  }
}

/** Text as text, data as JSON, files by name or address. */
function Parts({ parts }: { parts: readonly Part[] }) {
  if (parts.length === 0) return null;
  return (
    <div class="parts">
      {parts.map((part, index) => {
        if (typeof part.text === 'string') return <p key={index}>{part.text}</p>;
        if (part.data !== undefined)
          return <Json key={index} value={part.data} label={`Data part ${index + 1}`} />;
        const name = part.filename ?? part.url ?? 'a file';
        return (
          <p key={index} class="muted">
            File: {name}
            {part.mediaType === undefined ? '' : ` (${part.mediaType})`}
          </p>
        );
      })}
    </div>
  );
}

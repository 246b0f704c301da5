/**
 * Tasks (decision 0159): an agent's tasks through ListTasks (A2A 1.0 §3.1.4) with the filters it
 * has (context, state, status time), paged by its `nextPageToken`; and one task through GetTask
 * (§3.1.3): its status, history, artifacts, and for a task still running its live events through
 * SubscribeToTask (§3.1.6). A task links to its trace when the host knows its trace id, and to
 * its push deliveries.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  getTask,
  listTasks,
  subscribe,
  type Message,
  type StreamResponse,
  type Task,
  type TaskFilter,
  type TaskState,
} from '../api/a2a';
import { getTraceId, type ConsoleSession, type ListedAgent } from '../api/host';
import type { PageProps } from '../app';
import { ErrorNotice, Json, Loaded, StateBadge, Time, stateName, useLoad } from '../components/common';
import { href } from '../route';
import { PageButtons, usePages } from '../components/pager';
import { AgentSelect } from '../components/agent-picker';
import { isTerminalState, TASK_STATES } from '../../../src/protocol/model';

type Part = Message['parts'][number];

export function TasksPage({ session, agents, route }: PageProps) {
  const agent = agents.find((a) => a.id === route.params[0]) ?? agents[0];
  const taskId = route.params[1];
  return (
    <>
      <h1>Tasks</h1>
      {agent === undefined ? (
        <p>This listener shows no agents.</p>
      ) : (
        <>
          <AgentSelect agents={agents} value={agent.id} page="tasks" />
          {taskId === undefined ? (
            <TaskList key={`${agent.id}?${route.query.toString()}`} agent={agent} query={route.query} />
          ) : (
            <TaskView key={`${agent.id}/${taskId}`} agent={agent} taskId={taskId} session={session} />
          )}
        </>
      )}
    </>
  );
}

/** A `datetime-local` value (the reader's time zone) as RFC 3339 UTC, or undefined if it is none. */
function rfc3339(local: string | null): string | undefined {
  if (local === null || local === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function TaskList({ agent, query }: { agent: ListedAgent; query: URLSearchParams }) {
  const contextId = query.get('contextId') ?? '';
  const status = query.get('status') ?? '';
  const after = query.get('after') ?? '';
  const pages = usePages();
  const token = pages.token;
  const filter: TaskFilter = {
    ...(contextId === '' ? {} : { contextId }),
    ...(status === '' ? {} : { status: status as TaskState }),
    ...(rfc3339(after) === undefined ? {} : { statusTimestampAfter: rfc3339(after)! }),
    ...(token === '' ? {} : { pageToken: token }),
    pageSize: 20,
  };
  const page = useLoad(() => listTasks(agent.id, filter), [agent.id, contextId, status, after, token]);
  return (
    <>
      <form
        class="filters"
        aria-label="Filter tasks"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          location.hash = href('tasks', agent.id, {
            contextId: String(data.get('contextId') ?? '').trim(),
            status: String(data.get('status') ?? ''),
            after: String(data.get('after') ?? ''),
          });
        }}
      >
        <label>
          Context id
          <input name="contextId" type="text" defaultValue={contextId} />
        </label>
        <label>
          State
          <select name="status" defaultValue={status}>
            <option value="">any</option>
            {TASK_STATES.map((s) => (
              <option key={s} value={s}>
                {stateName(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status changed after
          <input name="after" type="datetime-local" step={1} defaultValue={after} />
        </label>
        <button type="submit">Filter</button>
        <a class="button-like" href={href('tasks', agent.id)}>
          Clear
        </a>
      </form>
      <Loaded state={page} what="the tasks">
        {(value) => (
          <>
            <p class="muted" role="status">
              {value.totalSize} task{value.totalSize === 1 ? '' : 's'} match
              {pages.number > 1 ? ` · page ${pages.number}` : ''}
            </p>
            {value.tasks.length === 0 ? (
              <p>No tasks.</p>
            ) : (
              <table>
                <caption class="sr-only">Tasks of {agent.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Task</th>
                    <th scope="col">Context</th>
                    <th scope="col">State</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {value.tasks.map((task) => (
                    <tr key={task.id}>
                      <th scope="row">
                        <a href={href('tasks', agent.id, task.id)}>
                          <code>{task.id}</code>
                        </a>
                      </th>
                      <td>
                        <a href={href('tasks', agent.id, { contextId: task.contextId })}>
                          <code>{task.contextId}</code>
                        </a>
                      </td>
                      <td>
                        <StateBadge state={task.status.state} />
                      </td>
                      <td>
                        <Time value={task.status.timestamp} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <PageButtons pages={pages} nextPageToken={value.nextPageToken} />
          </>
        )}
      </Loaded>
    </>
  );
}

function TaskView({
  agent,
  taskId,
  session,
}: {
  agent: ListedAgent;
  taskId: string;
  session: ConsoleSession;
}) {
  const task = useLoad(() => getTask(agent.id, taskId), [agent.id, taskId]);
  return (
    <section aria-labelledby="task-title" class="detail">
      <h2 id="task-title">
        Task <code>{taskId}</code>
      </h2>
      <p>
        <a href={href('tasks', agent.id)}>All tasks of {agent.name}</a> ·{' '}
        <a href={href('push', agent.id, taskId)}>Push deliveries</a>
        <TraceLink agent={agent.id} taskId={taskId} session={session} />
      </p>
      <Loaded state={task} what="the task">
        {(value) => <TaskBody agent={agent} task={value} reload={task.reload} />}
      </Loaded>
    </section>
  );
}

/** The task's trace: a link into the trace viewer the host names, else the id as text. */
function TraceLink({ agent, taskId, session }: { agent: string; taskId: string; session: ConsoleSession }) {
  const trace = useLoad(() => getTraceId(agent, taskId), [agent, taskId]);
  const id = trace.value;
  if (id === undefined) return null;
  if (session.traceUrl === null) {
    return (
      <>
        {' '}
        · Trace <code>{id}</code>
      </>
    );
  }
  return (
    <>
      {' '}
      ·{' '}
      <a
        href={session.traceUrl.replace('{traceId}', encodeURIComponent(id))}
        target="_blank"
        rel="noopener noreferrer"
      >
        Trace {id}
      </a>
    </>
  );
}

function TaskBody({ agent, task, reload }: { agent: ListedAgent; task: Task; reload: () => void }) {
  const history = task.history ?? [];
  const artifacts = task.artifacts ?? [];
  return (
    <>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <StateBadge state={task.status.state} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time value={task.status.timestamp} />
        </dd>
        <dt>Context</dt>
        <dd>
          <a href={href('tasks', agent.id, { contextId: task.contextId })}>
            <code>{task.contextId}</code>
          </a>
        </dd>
        {task.status.message === undefined ? null : (
          <>
            <dt>Status message</dt>
            <dd>
              <Parts parts={task.status.message.parts} label="Status message" />
            </dd>
          </>
        )}
      </dl>
      <h3>History</h3>
      {history.length === 0 ? (
        <p class="muted">No messages.</p>
      ) : (
        <ol class="messages" aria-label="History">
          {history.map((message, index) => (
            <li
              key={`${message.messageId}-${index}`}
              class={`message ${message.role === 'ROLE_USER' ? 'user' : 'agent'}`}
            >
              <span class="role">{roleName(message.role)}</span>
              <Parts parts={message.parts} label={`Message ${index + 1}`} />
            </li>
          ))}
        </ol>
      )}
      <h3>Artifacts</h3>
      {artifacts.length === 0 ? (
        <p class="muted">No artifacts.</p>
      ) : (
        <ul class="artifacts" aria-label="Artifacts">
          {artifacts.map((artifact) => (
            <li key={artifact.artifactId}>
              <h4>{artifact.name ?? artifact.artifactId}</h4>
              {artifact.description === undefined ? null : <p class="muted">{artifact.description}</p>}
              <Parts parts={artifact.parts} label={`Artifact ${artifact.name ?? artifact.artifactId}`} />
            </li>
          ))}
        </ul>
      )}
      <h3>Live events</h3>
      <LiveEvents
        agent={agent.id}
        taskId={task.id}
        ended={isTerminalState(task.status.state)}
        onEnd={reload}
      />
    </>
  );
}

function roleName(role: string): string {
  return role === 'ROLE_USER' ? 'user' : role === 'ROLE_AGENT' ? 'agent' : role.toLowerCase();
}

/** A message's or an artifact's parts: text as text, data as JSON, files by name and type. */
export function Parts({ parts, label }: { parts: Part[]; label: string }) {
  return (
    <div class="parts">
      {parts.map((part, index) =>
        part.text !== undefined ? (
          <p key={index} class="part-text">
            {part.text}
          </p>
        ) : part.data !== undefined ? (
          <Json key={index} value={part.data} label={`${label}, data part ${index + 1}`} />
        ) : (
          <p key={index} class="muted">
            File {part.filename ?? ''} {part.mediaType ?? ''}{' '}
            {part.url === undefined ? '' : <code>{part.url}</code>}
          </p>
        ),
      )}
    </div>
  );
}

/** One streamed event in a line of words. */
function describe(event: StreamResponse): string {
  if ('task' in event) return `task, ${stateName(event.task.status.state)}`;
  if ('statusUpdate' in event) return `status: ${stateName(event.statusUpdate.status.state)}`;
  if ('artifactUpdate' in event) {
    const artifact = event.artifactUpdate.artifact;
    return `artifact ${artifact.name ?? artifact.artifactId}${event.artifactUpdate.append === true ? ' (appended)' : ''}`;
  }
  return `message from ${roleName(event.message.role)}`;
}

/**
 * SubscribeToTask: events appended as they arrive, until the task ends or the reader stops. It
 * stays in place when the task, read again at the stream's end, has ended, so its events remain.
 */
function LiveEvents({
  agent,
  taskId,
  ended,
  onEnd,
}: {
  agent: string;
  taskId: string;
  ended: boolean;
  onEnd: () => void;
}) {
  const [events, setEvents] = useState<StreamResponse[]>([]);
  const [phase, setPhase] = useState<'idle' | 'live' | 'ended' | 'stopped'>('idle');
  const [error, setError] = useState<unknown>(undefined);
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setEvents([]);
    setError(undefined);
    setPhase('live');
    try {
      for await (const event of subscribe(agent, taskId, controller.signal)) {
        setEvents((list) => [...list, event]);
      }
      setPhase('ended');
      onEnd();
    } catch (problem) {
      if ((problem as Error).name === 'AbortError') setPhase('stopped');
      else {
        setError(problem);
        setPhase('idle');
      }
    }
  };

  if (ended && phase === 'idle') return <p class="muted">The task has ended: no more events will come.</p>;
  return (
    <>
      <div class="toolbar">
        {ended ? null : phase === 'live' ? (
          <button type="button" class="secondary" onClick={() => abort.current?.abort()}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={() => void start()}>
            Resubscribe
          </button>
        )}
      </div>
      <p role="status" class="muted">
        {phase === 'live'
          ? `Following the task: ${events.length} event${events.length === 1 ? '' : 's'} so far.`
          : phase === 'ended'
            ? 'The stream ended.'
            : phase === 'stopped'
              ? 'Stopped following the task.'
              : ''}
      </p>
      <ErrorNotice error={error} />
      {events.length === 0 ? null : (
        <ol class="timeline" aria-label="Live events">
          {events.map((event, index) => (
            <li key={index}>{describe(event)}</li>
          ))}
        </ol>
      )}
    </>
  );
}

/**
 * Push (decision 0159): for one task, its push configs (ListTaskPushNotificationConfigs, A2A 1.0
 * §3.1.9; the URL and id only, never a token or credentials) and the deliveries still owed to
 * them with their attempts and last error; for the agent, the deliveries given up (dead letters),
 * each of which the owner may requeue. Deliveries and dead letters are owner APIs: on a public
 * listener without owner credentials the host answers 404, which the page explains.
 */
import { useState } from 'preact/hooks';
import { listPushConfigs } from '../api/a2a';
import { ApiError } from '../api/http';
import {
  listDeadLetters,
  listDeliveries,
  requeueDeadLetter,
  type ConsoleSession,
  type ListedAgent,
} from '../api/host';
import type { PageProps } from '../app';
import { ErrorNotice, Loaded, Time, useLoad } from '../components/common';
import { href } from '../route';
import { PageButtons, usePages } from '../components/pager';
import { AgentSelect } from '../components/agent-picker';

export function PushPage({ session, agents, route }: PageProps) {
  const agent = agents.find((a) => a.id === route.params[0]) ?? agents[0];
  const taskId = route.params[1];
  return (
    <>
      <h1>Push deliveries</h1>
      {agent === undefined ? (
        <p>This listener shows no agents.</p>
      ) : (
        <>
          <AgentSelect agents={agents} value={agent.id} page="push" />
          <TaskPicker key={`${agent.id}/${taskId ?? ''}`} agent={agent.id} taskId={taskId} />
          {taskId === undefined ? null : (
            <TaskPush key={`${agent.id}/${taskId}`} agent={agent} taskId={taskId} session={session} />
          )}
          <DeadLetters key={agent.id} agent={agent} session={session} />
        </>
      )}
    </>
  );
}

function TaskPicker({ agent, taskId }: { agent: string; taskId: string | undefined }) {
  return (
    <form
      class="filters"
      aria-label="Choose a task"
      onSubmit={(event) => {
        event.preventDefault();
        const value = String(new FormData(event.currentTarget as HTMLFormElement).get('taskId') ?? '').trim();
        location.hash = value === '' ? href('push', agent) : href('push', agent, value);
      }}
    >
      <label>
        Task id
        <input name="taskId" type="text" defaultValue={taskId ?? ''} />
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

/** True for the 404 a host gives on owner routes to callers who are not owners. */
function notOwner(error: unknown, session: ConsoleSession): boolean {
  return (
    error instanceof ApiError && error.status === 404 && session.listener === 'public' && !session.secured
  );
}

/** Why the owner APIs are not shown, when the host hid them. */
function OwnerNotice({ error, session }: { error: unknown; session: ConsoleSession }) {
  if (!notOwner(error, session)) return <ErrorNotice error={error} />;
  return (
    <div class="notice" role="status">
      <p>
        Push deliveries are an owner API: this host serves them on its internal listener only (or, on a host
        with security, to callers holding the <code>agents:approve</code> scope). Open the console on the
        internal listener to see them.
      </p>
    </div>
  );
}

function TaskPush({
  agent,
  taskId,
  session,
}: {
  agent: ListedAgent;
  taskId: string;
  session: ConsoleSession;
}) {
  const configs = useLoad(() => listPushConfigs(agent.id, taskId), [agent.id, taskId]);
  const deliveries = useLoad(() => listDeliveries(agent.id, taskId), [agent.id, taskId]);
  return (
    <section aria-labelledby="task-push" class="detail">
      <h2 id="task-push">
        Task <code>{taskId}</code>
      </h2>
      <p>
        <a href={href('tasks', agent.id, taskId)}>The task</a>
      </p>
      <h3>Configs</h3>
      <Loaded state={configs} what="the push configs">
        {(list) =>
          list.length === 0 ? (
            <p>No push configs: nothing is delivered for this task.</p>
          ) : (
            <table>
              <caption class="sr-only">Push configs of task {taskId}</caption>
              <thead>
                <tr>
                  <th scope="col">Config</th>
                  <th scope="col">Webhook</th>
                </tr>
              </thead>
              <tbody>
                {list.map((config) => (
                  <tr key={config.id}>
                    <th scope="row">
                      <code>{config.id ?? '—'}</code>
                    </th>
                    <td>
                      <code>{config.url}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <h3>Pending deliveries</h3>
      <div class="toolbar">
        <button type="button" class="secondary" onClick={deliveries.reload}>
          Reload deliveries
        </button>
      </div>
      {deliveries.error !== undefined ? (
        <OwnerNotice error={deliveries.error} session={session} />
      ) : (
        <Loaded state={deliveries} what="the pending deliveries">
          {(list) =>
            list.length === 0 ? (
              <p>Nothing is owed: every delivery went out, or was given up.</p>
            ) : (
              <table>
                <caption class="sr-only">Pending deliveries of task {taskId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Delivery</th>
                    <th scope="col">Config</th>
                    <th scope="col">Events</th>
                    <th scope="col">Delivered up to</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last error</th>
                    <th scope="col">Queued</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((d) => (
                    <tr key={d.id}>
                      <th scope="row">{d.id}</th>
                      <td>
                        <code>{d.configId}</code>
                      </td>
                      <td>
                        {d.firstSeq}–{d.lastSeq}
                      </td>
                      <td>{d.deliveredSeq < d.firstSeq ? 'none yet' : d.deliveredSeq}</td>
                      <td>{d.attempts}</td>
                      <td>{d.lastError ?? '—'}</td>
                      <td>
                        <Time value={d.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Loaded>
      )}
    </section>
  );
}

function DeadLetters({ agent, session }: { agent: ListedAgent; session: ConsoleSession }) {
  const pages = usePages();
  const token = pages.token;
  const page = useLoad(
    () => listDeadLetters(agent.id, token === '' ? {} : { pageToken: token }),
    [agent.id, token],
  );
  const [done, setDone] = useState<string>('');
  const [failure, setFailure] = useState<unknown>(undefined);
  const requeue = async (id: number) => {
    setFailure(undefined);
    setDone('');
    try {
      await requeueDeadLetter(agent.id, id);
      setDone(`Dead letter ${id} is back in the outbox, due now.`);
      page.reload();
    } catch (error) {
      setFailure(error);
    }
  };
  return (
    <section aria-labelledby="dead-letters">
      <h2 id="dead-letters">Dead letters of {agent.name}</h2>
      <p class="muted">Deliveries given up after their last attempt, oldest first.</p>
      <p role="status">{done}</p>
      <ErrorNotice error={failure} />
      {page.error !== undefined ? (
        <OwnerNotice error={page.error} session={session} />
      ) : (
        <Loaded state={page} what="the dead letters">
          {(value) => (
            <>
              {value.deadLetters.length === 0 ? (
                <p>No dead letters.</p>
              ) : (
                <table>
                  <caption class="sr-only">Dead letters of {agent.name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Delivery</th>
                      <th scope="col">Task</th>
                      <th scope="col">Config and webhook</th>
                      <th scope="col">Events</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Failed</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    {value.deadLetters.map((d) => (
                      <tr key={d.id}>
                        <th scope="row">{d.id}</th>
                        <td>
                          <a href={href('push', agent.id, d.taskId)}>
                            <code>{d.taskId}</code>
                          </a>
                        </td>
                        <td>
                          <code>{d.configId}</code> <code>{d.url}</code>
                        </td>
                        <td>
                          {d.firstSeq}–{d.lastSeq}
                        </td>
                        <td>{d.attempts}</td>
                        <td>{d.reason}</td>
                        <td>
                          <Time value={d.failedAt} />
                        </td>
                        <td>
                          <button
                            type="button"
                            aria-label={`Requeue dead letter ${d.id}`}
                            onClick={() => void requeue(d.id)}
                          >
                            Requeue
                          </button>
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
      )}
    </section>
  );
}

/**
 * Approvals: the owner's side of `requiresApproval` (decision 0017) for one agent — its queue
 * (`GET /agents/<id>/approvals?status=`), one approval with its audit trail, and while it is
 * pending the decision with a reason. Route `#/approvals/<agent>[/<approval>]?status=`.
 *
 * The owner APIs answer only owners (decision 0159): callers holding `agents:approve`, or anyone on
 * the internal listener of a host without security; elsewhere the page says why it sees nothing.
 */
import { useState } from 'preact/hooks';
import { decideApproval, getApproval, listApprovals } from '../api/host';
import type { PageProps } from '../app';
import { AgentPicker } from '../components/agent-picker';
import { ErrorNotice, Loaded, Time, useLoad } from '../components/common';
import { isOwner, NotOwner, OwnerError } from '../components/owner';
import { href } from '../route';

type Status = 'pending' | 'approved' | 'rejected';
const STATUSES: Status[] = ['pending', 'approved', 'rejected'];

export function ApprovalsPage({ session, agents, route }: PageProps) {
  const owner = isOwner(session);
  const agent = owner ? (route.params[0] ?? agents[0]?.id) : undefined;
  const wanted = route.query.get('status');
  const status = STATUSES.find((s) => s === wanted);
  const chosen = route.params[1];
  const [decided, setDecided] = useState(0);
  const queue = useLoad(
    () =>
      agent === undefined
        ? Promise.resolve(undefined)
        : listApprovals(agent, status === undefined ? {} : { status }),
    [agent, status, decided],
  );
  const go = (next: { agent?: string | undefined; status?: string | undefined }) => {
    location.hash = href('approvals', next.agent ?? agent ?? '', {
      status: 'status' in next ? next.status : status,
    });
  };
  return (
    <>
      <h1>Approvals</h1>
      <form class="filters" aria-label="Approvals filter" onSubmit={(e) => e.preventDefault()}>
        <AgentPicker agents={agents} value={agent} onChange={(id) => go({ agent: id })} />
        <label>
          Status
          <select
            value={status ?? ''}
            onChange={(e) => go({ status: (e.target as HTMLSelectElement).value || undefined })}
          >
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      {!owner ? (
        <NotOwner />
      ) : agent === undefined ? (
        <p>This listener shows no agents.</p>
      ) : queue.error !== undefined ? (
        <OwnerError error={queue.error} what="approvals" />
      ) : (
        <Loaded state={queue} what="the approvals">
          {(page) =>
            page === undefined || page.approvals.length === 0 ? (
              <p role="status">No {status ?? ''} approvals for this agent.</p>
            ) : (
              <table class="approvals">
                <caption>
                  Approvals of <code>{agent}</code>
                  {status === undefined ? '' : `, ${status}`}, oldest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Approval</th>
                    <th scope="col">Task</th>
                    <th scope="col">Contract</th>
                    <th scope="col">Requested</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {page.approvals.map((a) => (
                    <tr key={a.id} class={a.id === chosen ? 'chosen' : undefined}>
                      <th scope="row">
                        <a
                          href={href('approvals', agent, a.id, { status })}
                          aria-current={a.id === chosen ? 'true' : undefined}
                        >
                          {a.id}
                        </a>
                      </th>
                      <td>
                        <a href={href('tasks', agent, a.taskId)}>{a.taskId}</a>
                      </td>
                      <td>
                        <code>{a.contract}</code>
                      </td>
                      <td>
                        <Time value={a.requestedAt} />
                      </td>
                      <td>
                        <span class={`badge approval-${a.status}`}>{a.status}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Loaded>
      )}
      {agent === undefined || chosen === undefined ? null : (
        <ApprovalDetail
          key={`${agent}/${chosen}`}
          agent={agent}
          id={chosen}
          onDecided={() => setDecided((n) => n + 1)}
        />
      )}
    </>
  );
}

/** One approval: the record, its audit trail, and the decision while it is pending. */
function ApprovalDetail({ agent, id, onDecided }: { agent: string; id: string; onDecided: () => void }) {
  const detail = useLoad(() => getApproval(agent, id), [agent, id]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [outcome, setOutcome] = useState<string>();
  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await decideApproval(agent, id, approve, reason);
      setOutcome(approve ? 'Approved: the task runs now.' : 'Rejected: the task is rejected.');
      setReason('');
      detail.reload();
      onDecided();
    } catch (failure) {
      setError(failure);
      detail.reload();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="detail" aria-labelledby="approval-detail">
      <h2 id="approval-detail">Approval {id}</h2>
      {outcome === undefined ? null : (
        <p class="notice ok" role="status">
          {outcome}
        </p>
      )}
      <ErrorNotice error={error} />
      {detail.error !== undefined ? (
        <OwnerError error={detail.error} what="this approval" />
      ) : (
        <Loaded state={detail} what="the approval">
          {({ approval, history }) => (
            <>
              <dl class="facts">
                <dt>Task</dt>
                <dd>
                  <a href={href('tasks', agent, approval.taskId)}>{approval.taskId}</a>
                </dd>
                <dt>Context</dt>
                <dd>
                  <code>{approval.contextId}</code>
                </dd>
                <dt>Contract</dt>
                <dd>
                  <code>{approval.contract}</code>
                </dd>
                <dt>Asked by</dt>
                <dd>{approval.owner === '' ? 'an anonymous caller' : approval.owner}</dd>
                <dt>Status</dt>
                <dd>
                  <span class={`badge approval-${approval.status}`}>{approval.status}</span>
                </dd>
              </dl>
              <h3 id="approval-trail">Audit trail</h3>
              <ol class="timeline" aria-labelledby="approval-trail">
                {history.map((event, index) => (
                  <li key={index}>
                    <strong>{event.action}</strong>
                    {event.by === undefined ? '' : ` by ${event.by}`} · <Time value={event.at} />
                    {event.reason === undefined ? null : <p class="reason">Reason: {event.reason}</p>}
                  </li>
                ))}
              </ol>
              {approval.status !== 'pending' ? null : (
                <form
                  class="decision"
                  aria-label="Decide"
                  onSubmit={(e) => {
                    e.preventDefault();
                  }}
                >
                  <label>
                    Reason (optional, kept in the audit trail)
                    <textarea
                      rows={3}
                      value={reason}
                      onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)}
                    />
                  </label>
                  <button type="button" disabled={busy} onClick={() => void decide(true)}>
                    Approve
                  </button>
                  <button type="button" class="secondary" disabled={busy} onClick={() => void decide(false)}>
                    Reject
                  </button>
                </form>
              )}
            </>
          )}
        </Loaded>
      )}
    </section>
  );
}

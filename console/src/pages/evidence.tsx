/**
 * Mandates: the AUMP evidence an agent recorded about a task or a context (decisions 0057, 0159;
 * `GET /agents/<id>/evidence?taskId=|contextId=`) — each mandate's chain whole, what verifying it
 * found (numbering, hashes, links, one mandate), its head hash, and every event in order. Route
 * `#/evidence/<agent>?taskId=&contextId=`. Owners only, as the approvals (approvals.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { getEvidence, type EvidenceChainView } from '../api/host';
import type { PageProps } from '../app';
import { Loaded, Time, useLoad } from '../components/common';
import { href } from '../route';
import { AgentPicker } from '../components/agent-picker';
import { isOwner, NotOwner, OwnerError } from '../components/owner';

export function EvidencePage({ session, agents, route }: PageProps) {
  const owner = isOwner(session);
  const agent = route.params[0] ?? agents[0]?.id;
  const taskId = route.query.get('taskId') ?? '';
  const contextId = route.query.get('contextId') ?? '';
  const [task, setTask] = useState(taskId);
  const [context, setContext] = useState(contextId);
  useEffect(() => {
    setTask(taskId);
    setContext(contextId);
  }, [taskId, contextId]);
  const asked = owner && agent !== undefined && (taskId !== '' || contextId !== '');
  const chains = useLoad(
    () =>
      asked
        ? getEvidence(agent, {
            ...(taskId === '' ? {} : { taskId }),
            ...(contextId === '' ? {} : { contextId }),
          })
        : Promise.resolve(undefined),
    [agent, taskId, contextId],
  );
  const go = (next: { agent?: string; taskId: string; contextId: string }) => {
    location.hash = href('evidence', next.agent ?? agent ?? '', {
      taskId: next.taskId.trim(),
      contextId: next.contextId.trim(),
    });
  };
  return (
    <>
      <h1>Mandates</h1>
      <p class="muted">
        The AUMP evidence an agent recorded under its mandates about a task or a context, with each chain
        verified.
      </p>
      <form
        class="filters"
        aria-label="Evidence filter"
        onSubmit={(e) => {
          e.preventDefault();
          go({ taskId: task, contextId: context });
        }}
      >
        <AgentPicker
          agents={agents}
          value={agent}
          onChange={(id) => go({ agent: id, taskId: task, contextId: context })}
        />
        <label>
          Task id
          <input value={task} onInput={(e) => setTask((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Context id
          <input value={context} onInput={(e) => setContext((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Show evidence</button>
      </form>
      {!owner ? (
        <NotOwner />
      ) : agent === undefined ? (
        <p>This listener shows no agents.</p>
      ) : !asked ? (
        <p>Give a task id or a context id to see the evidence recorded about it.</p>
      ) : chains.error !== undefined ? (
        <OwnerError error={chains.error} what="evidence" />
      ) : (
        <Loaded state={chains} what="the evidence">
          {(found) =>
            found === undefined || found.length === 0 ? (
              <p role="status">No evidence of this agent mentions it.</p>
            ) : (
              <>
                {found.map((chain) => (
                  <Chain key={chain.mandateId} chain={chain} />
                ))}
              </>
            )
          }
        </Loaded>
      )}
    </>
  );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** One mandate's chain: the verification, then the events in sequence order. */
function Chain({ chain }: { chain: EvidenceChainView }) {
  const { verification } = chain;
  const headingId = `chain-${chain.mandateId}`;
  return (
    <section class="detail chain" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Mandate <code>{chain.mandateId}</code>
      </h2>
      <dl class="facts">
        <dt>Verification</dt>
        <dd>
          <span class={verification.valid ? 'badge chain-valid' : 'badge chain-broken'}>
            {verification.valid ? 'valid' : 'broken'}
          </span>{' '}
          {chain.events.length} event(s)
        </dd>
        <dt>Head hash</dt>
        <dd>
          {verification.headHash === undefined ? (
            <span class="muted">—</span>
          ) : (
            <code class="hash">{verification.headHash}</code>
          )}
        </dd>
      </dl>
      {verification.problems.length === 0 ? null : (
        <>
          <h3>Problems</h3>
          <ul class="problems">
            {verification.problems.map((problem, index) => (
              <li key={index}>{problem}</li>
            ))}
          </ul>
        </>
      )}
      <h3 id={`${headingId}-events`}>Events</h3>
      <ol class="timeline evidence-events" aria-labelledby={`${headingId}-events`}>
        {chain.events.map((event, index) => {
          const reasons = Array.isArray(event.reason_codes) ? (event.reason_codes as unknown[]) : [];
          const metadata = (event.metadata ?? {}) as Record<string, unknown>;
          return (
            <li key={index}>
              <p>
                <strong>
                  #{text(event.sequence) ?? index + 1} {text(event.event_type) ?? 'event'}
                </strong>
                {text(event.result) === undefined ? '' : ` · ${text(event.result)}`} ·{' '}
                <Time value={text(event.created_at)} />
              </p>
              {text(event.summary) === undefined ? null : <p>{text(event.summary)}</p>}
              {reasons.length === 0 ? null : (
                <p>
                  Reason codes:{' '}
                  {reasons.map((code, n) => (
                    <span key={n}>
                      {n === 0 ? '' : ', '}
                      <code>{String(code)}</code>
                    </span>
                  ))}
                </p>
              )}
              {text(metadata.a2a_task_id) === undefined ? null : (
                <p class="muted">
                  A2A task <code>{text(metadata.a2a_task_id)}</code>
                  {text(metadata.a2a_message_id) === undefined ? null : (
                    <>
                      , message <code>{text(metadata.a2a_message_id)}</code>
                    </>
                  )}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

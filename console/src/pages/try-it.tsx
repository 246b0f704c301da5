/**
 * Try it: send an agent a message and watch the task stream (A2A 1.0 §3.1.2 SendStreamingMessage
 * over SSE, §11). For an agent with contracts the message is a contract envelope (decision 0016)
 * whose payload comes from a form generated from the contract's input schema and is checked in
 * the browser with the same schema before anything is sent; the host checks it again and its
 * refusal, with the fields it names, is shown as it came. A running task can be canceled
 * (§3.1.5), and one that asks for input (TASK_STATE_INPUT_REQUIRED) answered in the same task.
 */
import { Validator } from '@cfworker/json-schema';
import { useEffect, useRef, useState } from 'preact/hooks';
import { cancelTask, sendStreaming, userMessage, type Message } from '../api/a2a';
import { getContracts, type NamedContractSpec } from '../api/host';
import type { PageProps } from '../app';
import { ErrorNotice, Loaded, StateBadge, stateName, useLoad } from '../components/common';
import {
  fieldErrors,
  fieldId,
  payloadOf,
  SchemaForm,
  type Draft,
  type FieldError,
} from '../components/schema-form';
import { addEvent, Timeline, whereOf, type TimelineEntry } from '../components/timeline';
import { href } from '../route';
import { AgentSelect } from '../components/agent-picker';
// A pure module (its only value import is a constant): the console builds the same envelope,
// as a data part with the contract media type, that Concord's own clients send.
import { createContractMessage } from '../../../src/contracts/typed-contract';

const FREE = '';
const FINAL = ['completed', 'failed', 'canceled', 'rejected'];

export function TryItPage({ agents, route }: PageProps) {
  const agentId = route.params[0] ?? agents[0]?.id;
  const contracts = useLoad(
    () =>
      agentId === undefined
        ? Promise.reject(new Error('This listener shows no agents.'))
        : getContracts(agentId),
    [agentId],
  );
  return (
    <>
      <h1>Try it</h1>
      <AgentSelect agents={agents} value={agentId ?? ''} page="try" />
      <Loaded state={contracts} what="the agent's contracts">
        {(published) => {
          const names = published.contracts.map((c) => c.name);
          const wanted = route.query.get('contract');
          // `?text` asks for free text where the agent also has contracts.
          const free = published.allowFreeform && (route.query.has('text') || names.length === 0);
          const chosen =
            wanted !== null && names.includes(wanted) ? wanted : free ? FREE : (names[0] ?? FREE);
          const contract = published.contracts.find((c) => c.name === chosen);
          return (
            <>
              {names.length === 0 ? null : (
                <>
                  <label for="try-contract">Contract</label>
                  <select
                    id="try-contract"
                    value={chosen}
                    onChange={(e) =>
                      (location.hash = href(
                        'try',
                        agentId!,
                        e.currentTarget.value === FREE ? { text: '1' } : { contract: e.currentTarget.value },
                      ))
                    }
                  >
                    {names.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                    {published.allowFreeform ? <option value={FREE}>Free text</option> : null}
                  </select>
                </>
              )}
              {!published.allowFreeform && contract === undefined ? (
                <p>This agent accepts no free text and publishes no contract.</p>
              ) : (
                <Composer key={`${agentId}\n${chosen}`} agentId={agentId!} contract={contract} />
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

function Composer({ agentId, contract }: { agentId: string; contract: NamedContractSpec | undefined }) {
  const [draft, setDraft] = useState<Draft>({});
  const [text, setText] = useState('');
  const [problems, setProblems] = useState<FieldError[]>([]);
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  const [task, setTask] = useState<{ taskId?: string; contextId?: string; state?: string }>({});
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [reply, setReply] = useState('');
  const abort = useRef<AbortController | undefined>(undefined);
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (problems.length > 0) summary.current?.focus();
  }, [problems]);

  const run = async (message: Message) => {
    const controller = new AbortController();
    abort.current = controller;
    setError(undefined);
    setRunning(true);
    setEntries((list) => [...list, { kind: 'sent', parts: message.parts }]);
    try {
      for await (const event of sendStreaming(agentId, message, controller.signal)) {
        setEntries((list) => addEvent(list, event));
        setTask((t) => ({ ...t, ...whereOf(event) }));
      }
    } catch (caught) {
      if ((caught as Error).name !== 'AbortError') setError(caught);
    } finally {
      setRunning(false);
    }
  };

  const send = (event: Event) => {
    event.preventDefault();
    if (contract === undefined) {
      if (text.trim() === '') {
        setProblems([{ pointer: 'text', message: 'Write a message first.' }]);
        return;
      }
      setProblems([]);
      setEntries([]);
      setTask({});
      void run(userMessage([{ text }]));
      return;
    }
    const schema = contract.input ?? true;
    const built = payloadOf(schema, draft);
    const found =
      built.problems.length > 0
        ? built.problems
        : fieldErrors(new Validator(schema as object, '2020-12', false).validate(built.value).errors);
    setProblems(found);
    if (found.length > 0) return;
    setEntries([]);
    setTask({});
    void run(
      createContractMessage({ name: contract.name }, built.value, { correlationId: crypto.randomUUID() }),
    );
  };

  const cancel = async () => {
    if (task.taskId === undefined) return;
    try {
      const answer = await cancelTask(agentId, task.taskId);
      setEntries((list) => [...list, { kind: 'note', text: 'Cancel answered:', state: answer.status.state }]);
      setTask((t) => ({ ...t, state: answer.status.state }));
    } catch (caught) {
      setError(caught);
    }
  };

  const answer = (event: Event) => {
    event.preventDefault();
    if (reply.trim() === '') return;
    void run(userMessage([{ text: reply }], { taskId: task.taskId, contextId: task.contextId }));
    setReply('');
  };

  const state = stateName(task.state);
  return (
    <>
      <form onSubmit={send} noValidate aria-labelledby="try-compose">
        <h2 id="try-compose">{contract === undefined ? 'Message' : `Payload of ${contract.name}`}</h2>
        {contract?.description === undefined ? null : <p class="muted">{contract.description}</p>}
        {problems.length === 0 ? null : (
          <div class="notice error" role="alert" tabIndex={-1} ref={summary}>
            <p>Nothing was sent: fix these first.</p>
            <ul>
              {problems.map((p) => (
                <li key={`${p.pointer} ${p.message}`}>
                  {p.pointer === 'text' ? null : (
                    <a href={`#${fieldId(p.pointer)}`} onClick={(e) => focusField(e, p.pointer)}>
                      <code>{p.pointer === '' ? '/' : p.pointer}</code>
                    </a>
                  )}{' '}
                  {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {contract === undefined ? (
          <div class="field">
            <label for="try-text">Text</label>
            <textarea
              id="try-text"
              rows={4}
              value={text}
              aria-invalid={problems.length > 0 ? 'true' : undefined}
              aria-describedby={problems.length > 0 ? 'try-text-error' : undefined}
              onInput={(e) => setText(e.currentTarget.value)}
            />
            {problems.length > 0 ? (
              <span id="try-text-error" class="field-error">
                {problems[0]!.message}
              </span>
            ) : null}
          </div>
        ) : (
          <SchemaForm
            schema={contract.input ?? true}
            draft={draft}
            errors={problems}
            onChange={(pointer, raw) => setDraft((d) => ({ ...d, [pointer]: raw }))}
          />
        )}
        <button type="submit" disabled={running}>
          Send
        </button>
        {task.taskId !== undefined && !FINAL.includes(state) ? (
          <button type="button" class="secondary" onClick={() => void cancel()}>
            Cancel task
          </button>
        ) : null}
      </form>
      <ErrorNotice error={error} />
      {task.taskId === undefined && task.contextId === undefined ? null : (
        <dl class="facts">
          <dt>Task</dt>
          <dd>
            {task.taskId === undefined ? (
              '—'
            ) : (
              <a href={href('tasks', agentId, task.taskId)}>{task.taskId}</a>
            )}{' '}
            <StateBadge state={task.state} />
            {running ? <span class="muted"> streaming…</span> : null}
          </dd>
          <dt>Context</dt>
          <dd>
            <code>{task.contextId ?? '—'}</code>
          </dd>
        </dl>
      )}
      {state === 'input required' && !running ? (
        <form onSubmit={answer} aria-labelledby="try-reply">
          <h2 id="try-reply">The agent asks for input</h2>
          <label for="try-reply-text">Your reply</label>
          <textarea
            id="try-reply-text"
            rows={3}
            value={reply}
            onInput={(e) => setReply(e.currentTarget.value)}
          />
          <button type="submit">Send reply</button>
        </form>
      ) : null}
      <Timeline entries={entries} />
      {!running && FINAL.includes(state) ? (
        <p role="status">
          The task ended: <StateBadge state={task.state} />
        </p>
      ) : null}
    </>
  );
}

/** The summary's links move focus to the field (the fragment itself names the page's route). */
function focusField(event: Event, pointer: string) {
  event.preventDefault();
  document.getElementById(fieldId(pointer))?.focus();
}

/**
 * The owner's view of an agent's push deliveries (decision 0159; the outbox of decision 0087),
 * per agent under `/agents/<id>/push`:
 *
 * - `GET  push/deliveries?taskId=<id>` — the deliveries still owed for the task (every config),
 *   oldest first, as they stand: attempts of the next event and the last error;
 * - `GET  push/dead-letters[?taskId=&pageSize=&pageToken=]` — deliveries given up, oldest first,
 *   paged as the store pages them. `taskId` filters within the page read (a page may so come back
 *   short, or empty with a `nextPageToken`): the store keeps dead letters in one id order only;
 * - `POST push/dead-letters/<id>:requeue` — puts a dead letter back in the outbox, due now.
 *
 * Neither answer carries the events or the task snapshot the entries hold (that is the task's
 * own business, readable with GetTask), nor anything of the configs' secrets. Only the agent's
 * owners may call it (owner-access.ts); without push on the agent every route answers 404.
 */
import { A2AError } from '../protocol/internal.js';
import type { HttpRequest, HttpResponse } from '../server/internal.js';
import type {
  PushDeadLetter,
  PushDeadLetterView,
  PushDeliveryView,
  PushOutboxEntry,
  PushStore,
} from '../store/internal.js';
import type { MountedAgent } from './mounted-agent.js';
import { notAllowed, ownerJson, ownerOf, ownerRefusal, type OwnerAccess } from './owner-access.js';

/** Answers a push deliveries request for one agent; `path` is below `/agents/<id>`. */
export async function handlePushDeliveries(
  request: HttpRequest,
  path: string,
  agent: MountedAgent,
  access: OwnerAccess,
): Promise<HttpResponse> {
  try {
    await ownerOf(request, access, 'Push deliveries');
    const store = pushStoreOf(agent);
    const rest = path.slice('/push'.length);
    if (rest === '/deliveries') {
      if (request.method !== 'GET') throw notAllowed(request.method);
      const taskId = request.query.get('taskId') ?? '';
      if (taskId === '') {
        throw new A2AError('InvalidParamsError', 'taskId is required: the task whose deliveries to list', {
          violations: [{ field: 'taskId', description: 'required' }],
        });
      }
      const pending = await store.listPending(taskId);
      return ownerJson(200, { deliveries: pending.map(deliveryView) });
    }
    if (rest === '/dead-letters') {
      if (request.method !== 'GET') throw notAllowed(request.method);
      const pageSize = request.query.get('pageSize');
      const pageToken = request.query.get('pageToken');
      const taskId = request.query.get('taskId') ?? '';
      const page = await store.listDeadLetters({
        ...(pageSize === null ? {} : { pageSize: Number(pageSize) }),
        ...(pageToken === null ? {} : { pageToken }),
      });
      const letters = taskId === '' ? page.deadLetters : page.deadLetters.filter((d) => d.taskId === taskId);
      return ownerJson(200, { deadLetters: letters.map(deadLetterView), nextPageToken: page.nextPageToken });
    }
    const match = /^\/dead-letters\/([^/:]+):requeue$/.exec(rest);
    if (match === null) throw new A2AError('MethodNotFoundError', `No push route at ${path}`);
    if (request.method !== 'POST') throw notAllowed(request.method);
    const raw = decodeURIComponent(match[1]!);
    const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : undefined;
    if (id === undefined) {
      throw new A2AError('InvalidParamsError', `"${raw.slice(0, 64)}" is not a dead letter id`, {
        violations: [{ field: 'id', description: 'expected a positive integer' }],
      });
    }
    // No error type of its own for a dead letter: NOT_FOUND with the id named, as for a task.
    if (!(await store.requeueDeadLetter(id))) {
      throw new A2AError('TaskNotFoundError', `No dead letter ${id}`);
    }
    return ownerJson(200, { requeued: true });
  } catch (error) {
    return ownerRefusal(error, agent.server.agentCard);
  }
}

/**
 * The agent's push store, when the agent has push: the server's push machinery exists exactly
 * when its card offers push (push-notifications.ts), and then its task store keeps the outbox.
 */
function pushStoreOf(agent: MountedAgent): PushStore {
  const { server } = agent;
  const store = server.push === undefined ? undefined : server.store.push;
  if (store === undefined)
    throw new A2AError('MethodNotFoundError', 'push notifications are off for this agent');
  return store;
}

function deliveryView(entry: PushOutboxEntry): PushDeliveryView {
  const view: PushDeliveryView = {
    id: entry.id,
    taskId: entry.taskId,
    configId: entry.configId,
    firstSeq: entry.firstSeq,
    lastSeq: entry.lastSeq,
    deliveredSeq: entry.deliveredSeq,
    attempts: entry.attempts,
    createdAt: entry.createdAt,
  };
  if (entry.lastError !== undefined) view.lastError = entry.lastError;
  return view;
}

function deadLetterView(letter: PushDeadLetter): PushDeadLetterView {
  return { ...deliveryView(letter), url: letter.url, reason: letter.reason, failedAt: letter.failedAt };
}

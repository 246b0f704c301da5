/**
 * The interop matrix's one neutral view of a client (decision 0047): every client under test (the
 * official SDK's 1.3 and 0.3.x lines, Concord's client, the `concord` CLI) is wrapped in a Driver
 * that speaks in these small shapes, so one table of operations runs against every client and
 * server and a failing cell names client / interface / operation.
 */

/** Task states as the 0.3 wire spells them (A2A 0.3 §6.3); 1.0's `TASK_STATE_*` map onto them. */
export type State =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** 1.0 names (enum member name or SDK enum number) and 0.3 names to the 0.3 spelling. */
export function stateName(value: unknown): State {
  const names: Record<number, State> = {
    1: 'submitted',
    2: 'working',
    3: 'completed',
    4: 'failed',
    5: 'canceled',
    6: 'input-required',
    7: 'rejected',
    8: 'auth-required',
  };
  if (typeof value === 'number') return names[value] ?? 'unknown';
  if (typeof value !== 'string') return 'unknown';
  const short = value
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
  return short === 'cancelled' ? 'canceled' : (short as State);
}

/** A task as the operations look at it. */
export interface NTask {
  id: string;
  contextId: string;
  state: State;
  /** The text of every artifact part, in order. */
  texts: string[];
  historyLength: number;
}

/** A stream event as the operations look at it. */
export type NEvent =
  | { kind: 'task'; id: string; state: State }
  | { kind: 'status'; state: State }
  | { kind: 'artifact'; text: string; append: boolean; lastChunk: boolean }
  | { kind: 'message' };

/** A push config as the operations look at it. */
export interface NPushConfig {
  taskId: string;
  id: string;
  url: string;
  token?: string;
}

/** A card as the operations look at it. */
export interface NCard {
  name: string;
  skills: string[];
}

/** What a send may carry beside its text. */
export interface SendOptions {
  taskId?: string;
  contextId?: string;
  returnImmediately?: boolean;
  /** A push config given with the send (1.0 `taskPushNotificationConfig`, 0.3 `pushNotificationConfig`). */
  push?: { url: string; token: string };
}

/** One page of ListTasks. */
export interface NPage {
  ids: string[];
  totalSize: number | undefined;
  nextPageToken: string;
}

/**
 * A client under test. Optional members are operations a client may not offer at all; the matrix
 * leaves those cells out and the report says so (every client of the matrix offers them today).
 */
export interface Driver {
  card(): Promise<NCard>;
  /** The extended card, asked for with the server's bearer token. */
  extendedCard?(): Promise<NCard>;
  send(text: string, options?: SendOptions): Promise<NTask>;
  /** Whether `send` can carry a push config. */
  sendsPush?: true;
  stream(text: string): Promise<NEvent[]>;
  get(id: string, historyLength?: number): Promise<NTask>;
  list?(contextId: string, pageSize: number, pageToken?: string): Promise<NPage>;
  cancel(id: string): Promise<NTask>;
  /** Re-attaches to a task; `attached` runs once the first event arrived; returns every event. */
  resubscribe(id: string, attached: () => Promise<void>): Promise<NEvent[]>;
  pushCreate?(config: NPushConfig): Promise<NPushConfig>;
  pushGet?(taskId: string, id: string): Promise<NPushConfig>;
  pushList?(taskId: string): Promise<NPushConfig[]>;
  pushDelete?(taskId: string, id: string): Promise<void>;
  close(): Promise<void> | void;
}

/**
 * Known SDK behaviours that make one check of an operation meaningless for a client, each with
 * the reason naming the SDK code; the operation skips that one check and keeps the others.
 */
export interface Limits {
  /** The client drops `append` from artifact updates (so every chunk reads `append: false`). */
  dropsAppend?: string;
}

/** A client row of the matrix: its label, protocol version, and how to connect it. */
export interface ClientRow {
  client: string;
  binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  version: '1.0' | '0.3';
  limits?: Limits;
  /** Operations this client does not offer at all (the matrix has no such cells). */
  lacks?: (keyof Driver)[];
  connect(server: ServerUnderTest): Promise<Driver>;
}

/** The server side of the matrix. */
export interface ServerUnderTest {
  /** Base URL (the card is under `.well-known/`), with a trailing slash. */
  url: string;
  /** The bearer token that unlocks the extended card. */
  token: string;
  name: string;
  extendedName: string;
  /** A webhook receiver the server may deliver to. */
  webhookUrl: string;
  waitForPush(taskId: string, state: State): Promise<{ token: string | undefined; body: string }>;
}

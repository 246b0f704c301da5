/**
 * The A2A client (decision 0019): resolves the card, picks an interface, and runs the operations by the
 * spec's names, identical to the server's (house style rule 3), with canonical input and output
 * on every transport. Idempotent reads and sends (with their Idempotency-Key, decision 0137) are
 * retried (retry.ts), streams resume (resumable-stream.ts), every request honours a timeout and
 * an AbortSignal, and `close()` ends every open stream.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../protocol/index.js';
import type { ContractRef, TypedContract } from '../contracts/index.js';
import { agentContractsOfCard, type AgentContracts } from './contracts/agent-contracts.js';
import { selectCredentials, type Credential, type SelectedCredential } from './auth/auth.js';
import { fetchAgentCard, type ResolvedCard } from './card/card-resolver.js';
import { fetchCatalogAgentCard } from './card/catalog-resolver.js';
import { A2ALocalError } from './client-errors.js';
import { HttpPipeline, tlsOptionsOf, type CallControl } from './http/client-http.js';
import type {
  A2AClientCommonOptions,
  A2AClientOptions,
  A2AConnectOptions,
  CallOptions,
  SendOptions,
  SendStreamOptions,
  StreamOptions,
  SubscribeOptions,
} from './client-options.js';
import {
  sendContractMessage,
  typedContractSender,
  type ContractResult,
  type PayloadOf,
  type ReplyOf,
  type SendContractOptions,
  type TypedContractSender,
} from './contracts/contract-client.js';
import { contractsUrlOf, fetchContractsDocument } from './contracts/contracts-document.js';
import { idempotencyKeyField } from './http/idempotency-key.js';
import { extensionsInterceptor, type ClientInterceptor, type OutgoingCall } from './auth/interceptors.js';
import { selectInterface } from './card/interface-selection.js';
import { resumableStream } from './transports/resumable-stream.js';
import { isRetryable, isRetryableSend, withRetry, withRetryUntilFirst } from './http/retry.js';
import type { ArtifactPartHandler } from './transports/artifact-parts.js';
import {
  createTransport,
  type CallTransport,
  type StreamControl,
  type TransportInfo,
} from './transports/transport.js';
import type { OperationName } from '../protocol/operation-names.js';
import type {
  OperationTypes,
  StreamingOperationName,
  UnaryOperationName,
} from '../protocol/operation-types.js';
import { networkPolicyOf } from './http/address-guard.js';
import { startCall, tracedStream, tracedUnary } from './client-tracing.js';

const DEFAULT_TIMEOUT_MS = 30_000;

function pipelineFor(
  options: A2AClientCommonOptions,
  credentials: () => readonly SelectedCredential[],
): HttpPipeline {
  const interceptors: ClientInterceptor[] = [...(options.interceptors ?? [])];
  if (options.extensions !== undefined && options.extensions.length > 0)
    interceptors.unshift(extensionsInterceptor(options.extensions));
  return new HttpPipeline({
    network: networkPolicyOf(options),
    interceptors,
    credentials,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.streamIdleTimeoutMs === undefined
      ? {}
      : { streamIdleTimeoutMs: options.streamIdleTimeoutMs }),
    ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
    ...tlsOptionsOf(options),
    ...(options.onAuthServerExchange === undefined
      ? {}
      : { onAuthServerExchange: options.onAuthServerExchange }),
  });
}

/** A send without an Idempotency-Key is never retried: a retry could run the task twice. */
const NO_RETRY = { retries: 0 };

/** A client bound to one agent and one of its interfaces. */
export class A2AClient {
  /** The card in use: the public one, replaced by the extended one after `getExtendedAgentCard`. */
  card: AgentCard;
  /** The interface calls go to. */
  readonly transport: TransportInfo;
  /** How the card was obtained, when the client resolved it (`connect`). */
  resolvedCard: ResolvedCard | undefined;

  private readonly options: A2AClientCommonOptions;
  private readonly wire: CallTransport;
  private readonly http: HttpPipeline;
  private readonly closing = new AbortController();
  private selected: { card: AgentCard; credentials: readonly SelectedCredential[] } | undefined;

  /** A client for a card already in hand; the interface is chosen from it (or `options.transport`). */
  constructor(options: A2AClientOptions, pipeline?: HttpPipeline) {
    this.options = options;
    this.card = options.card;
    this.transport = options.transport ?? selectInterface(options.card, options.prefer);
    const http = pipeline ?? pipelineFor(options, () => this.credentials());
    this.http = http;
    this.wire = createTransport(this.transport, http, options.grpc, options);
  }

  /** Resolves the agent's card at `url` (cached, verified, SSRF-guarded) and picks an interface. */
  static async connect(url: string | URL, options: A2AConnectOptions = {}): Promise<A2AClient> {
    // The pipeline exists before the client (it fetches the card); credentials come once both do.
    const holder: { client?: A2AClient } = {};
    const http = pipelineFor(options, () => holder.client?.credentials() ?? []);
    const versions = options.prefer?.versions ?? ['1.0', '0.3'];
    const fetchOptions = {
      protocolVersion: versions.includes('1.0') ? ('1.0' as const) : ('0.3' as const),
      cache: options.cardCache,
      verify: options.verify,
      retry: options.retry,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      reading: options.reading,
      onWarning: options.onWarning,
    };
    // An origin with several agents: the one `agent` names in its AI Catalog (decision 0167).
    const resolving =
      options.agent === undefined
        ? fetchAgentCard(http, url, fetchOptions)
        : fetchCatalogAgentCard(
            http,
            url,
            options.agent,
            Object.assign({}, fetchOptions, { credentials: credentialList(options.auth) }),
          );
    const resolved = await resolving.catch((error: unknown) => {
      http.close();
      throw error;
    });
    const client = new A2AClient(Object.assign({}, options, { card: resolved.card }), http);
    client.resolvedCard = resolved;
    holder.client = client;
    return client;
  }

  private credentials(): readonly SelectedCredential[] {
    if (this.selected?.card !== this.card) {
      this.selected = {
        card: this.card,
        credentials: selectCredentials(this.card, credentialList(this.options.auth)),
      };
    }
    return this.selected.credentials;
  }

  private control(options: CallOptions | StreamOptions | undefined): StreamControl {
    if (this.closing.signal.aborted) throw new A2ALocalError('ABORTED', 'The client is closed');
    const signal =
      options?.signal === undefined
        ? this.closing.signal
        : AbortSignal.any([options.signal, this.closing.signal]);
    const control: StreamControl =
      options?.timeoutMs === undefined ? { signal } : { signal, timeoutMs: options.timeoutMs };
    if (options !== undefined && 'idleTimeoutMs' in options && options.idleTimeoutMs !== undefined)
      control.idleTimeoutMs = options.idleTimeoutMs;
    return control;
  }

  /** Runs an operation in its CLIENT span; `run` gets the control carrying the span's context. */
  private traced<Op extends UnaryOperationName>(
    op: Op,
    request: OperationTypes[Op][0],
    options: CallOptions | undefined,
    run: (control: StreamControl) => Promise<OperationTypes[Op][1]>,
  ): Promise<OperationTypes[Op][1]> {
    const control = this.control(options);
    const call = startCall(op, this.transport, request, options?.trace);
    return tracedUnary(call, (trace) => run(Object.assign({}, control, { trace })));
  }

  private once<Op extends UnaryOperationName>(
    op: Op,
    request: OperationTypes[Op][0],
    options?: CallOptions,
  ): Promise<OperationTypes[Op][1]> {
    return this.traced(op, request, options, (control) => this.wire.unary(op, request, control));
  }

  /** Idempotent calls (A2A 1.0 §3.3.1) are retried with backoff and jitter. */
  private idempotent<Op extends UnaryOperationName>(
    op: Op,
    request: OperationTypes[Op][0],
    options?: CallOptions,
  ): Promise<OperationTypes[Op][1]> {
    return this.traced(op, request, options, (control) =>
      withRetry(
        (attempt) => this.wire.unary(op, request, Object.assign({}, control, { attempt })),
        this.options.retry,
        control.signal,
      ),
    );
  }

  /**
   * `SendMessage`: a task or a direct message. Carries an Idempotency-Key, the same on each retry
   * (decision 0137); without one (`idempotencyKey: false`) it is never retried.
   */
  sendMessage(request: SendMessageRequest, options?: SendOptions): Promise<SendMessageResponse> {
    const idempotencyKey = idempotencyKeyField(options?.idempotencyKey);
    return this.traced('sendMessage', request, options, (control) => {
      if (idempotencyKey === undefined) return this.wire.unary('sendMessage', request, control);
      return withRetry(
        (attempt) =>
          this.wire.unary('sendMessage', request, Object.assign({}, control, { attempt, idempotencyKey })),
        this.options.retry,
        control.signal,
        isRetryableSend,
      );
    });
  }

  /**
   * `SendStreamingMessage`: the task's events as canonical StreamResponses; resumes after drops.
   * Opening it is retried like `sendMessage`, with the same Idempotency-Key.
   */
  sendStreamingMessage(
    request: SendMessageRequest,
    options?: SendStreamOptions,
  ): AsyncGenerator<StreamResponse> {
    const control = this.control(options);
    const idempotencyKey = idempotencyKeyField(options?.idempotencyKey);
    return tracedStream(
      () => startCall('sendStreamingMessage', this.transport, request, options?.trace),
      (trace) => {
        const traced = Object.assign({}, control, { trace });
        const send: StreamControl =
          idempotencyKey === undefined ? traced : Object.assign({}, traced, { idempotencyKey });
        const first = withRetryUntilFirst(
          (attempt) =>
            this.wire.stream('sendStreamingMessage', request, Object.assign({}, send, { attempt })),
          idempotencyKey === undefined ? NO_RETRY : this.options.retry,
          control.signal,
          isRetryableSend,
        );
        return resumableStream(
          first,
          this.reattach(traced),
          this.transport.protocolVersion,
          options?.resume ?? this.options.resume,
          control.signal,
        );
      },
    );
  }

  /**
   * `GetTask` (retried). With `onArtifactPart`, each part of the task's artifacts is handed to it as
   * it arrives and not kept (decision 0173): the task comes back with its artifacts' other members
   * and empty `parts`, so a task of any size is read in the memory of one part. The handler is
   * awaited, which slows the read to its pace. Once it has had a part, a failure is not retried: a
   * retry would hand the parts again.
   */
  getTask(
    request: GetTaskRequest,
    options?: CallOptions & {
      onArtifactPart?:
        ((part: Part, at: { artifact: number; part: number }) => void | Promise<void>) | undefined;
    },
  ): Promise<Task> {
    const onPart = options?.onArtifactPart;
    if (onPart === undefined) return this.idempotent('getTask', request, options);
    return this.traced('getTask', request, options, (control) => {
      let handed = 0;
      const counted: ArtifactPartHandler = (part, at) => {
        handed++;
        return onPart(part, at);
      };
      return withRetry(
        (attempt) => this.taskInParts(request, counted, Object.assign({}, control, { attempt })),
        this.options.retry,
        control.signal,
        (error) => handed === 0 && isRetryable(error),
      );
    });
  }

  private async taskInParts(request: GetTaskRequest, onPart: ArtifactPartHandler, control: CallControl) {
    if (this.wire.getTaskInParts !== undefined) return this.wire.getTaskInParts(request, onPart, control);
    // gRPC answers with one message: the task is read whole, then its parts handed over in order.
    const task = await this.wire.unary('getTask', request, control);
    const artifacts = task.artifacts ?? [];
    for (let a = 0; a < artifacts.length; a++) {
      const parts = artifacts[a]!.parts;
      for (let p = 0; p < parts.length; p++) await onPart(parts[p]!, { artifact: a, part: p });
    }
    if (task.artifacts === undefined) return task;
    return Object.assign({}, task, { artifacts: artifacts.map((a) => Object.assign({}, a, { parts: [] })) });
  }

  /** `ListTasks` (retried); A2A 1.0 only: 0.3 has no such method (A2A 0.3 §7, `tasks/list`). */
  async listTasks(request: ListTasksRequest = {}, options?: CallOptions): Promise<ListTasksResponse> {
    if (this.transport.protocolVersion === '0.3') {
      throw new A2ALocalError(
        'UNSUPPORTED_OPERATION',
        `listTasks needs A2A 1.0; the chosen interface (${this.transport.protocolBinding} at ${this.transport.url}) speaks 0.3, which has no ListTasks`,
      );
    }
    return this.idempotent('listTasks', request, options);
  }

  /** `CancelTask`. */
  cancelTask(request: CancelTaskRequest, options?: CallOptions): Promise<Task> {
    return this.once('cancelTask', request, options);
  }

  /** `SubscribeToTask`: re-attaches to a task's stream (after `lastEventId` when given); resumes after drops. */
  subscribeToTask(
    request: SubscribeToTaskRequest,
    options?: SubscribeOptions,
  ): AsyncGenerator<StreamResponse> {
    const control = this.control(options);
    return tracedStream(
      () => startCall('subscribeToTask', this.transport, request, options?.trace),
      (trace) => {
        const traced = Object.assign({}, control, { trace });
        const first = this.wire.stream(
          'subscribeToTask',
          request,
          options?.lastEventId === undefined
            ? traced
            : Object.assign({}, traced, { lastEventId: options.lastEventId }),
        );
        return resumableStream(
          first,
          this.reattach(traced, request.tenant),
          this.transport.protocolVersion,
          options?.resume ?? this.options.resume,
          control.signal,
          request.id,
        );
      },
    );
  }

  private reattach(control: CallControl, tenant?: string) {
    return (id: string, lastEventId: string | undefined, attempt: number) =>
      this.wire.stream(
        'subscribeToTask',
        tenant === undefined ? { id } : { id, tenant },
        Object.assign({}, control, { attempt }, lastEventId === undefined ? {} : { lastEventId }),
      );
  }

  /** `CreateTaskPushNotificationConfig`. */
  createTaskPushNotificationConfig(
    config: TaskPushNotificationConfig,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.once('createTaskPushNotificationConfig', config, options);
  }

  /** `GetTaskPushNotificationConfig` (retried). */
  getTaskPushNotificationConfig(
    ref: TaskPushNotificationConfigRef,
    options?: CallOptions,
  ): Promise<TaskPushNotificationConfig> {
    return this.idempotent('getTaskPushNotificationConfig', ref, options);
  }

  /** `ListTaskPushNotificationConfigs` (retried). */
  listTaskPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    options?: CallOptions,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.idempotent('listTaskPushNotificationConfigs', request, options);
  }

  /** `DeleteTaskPushNotificationConfig`. */
  async deleteTaskPushNotificationConfig(
    ref: TaskPushNotificationConfigRef,
    options?: CallOptions,
  ): Promise<void> {
    await this.once('deleteTaskPushNotificationConfig', ref, options);
  }

  /**
   * `GetExtendedAgentCard` (retried). The client then uses it in place of the public card
   * (A2A 1.0 §3.1.11: the client SHOULD use it for the session); the interface stays as chosen.
   */
  async getExtendedAgentCard(options?: CallOptions & { tenant?: string }): Promise<AgentCard> {
    const card = await this.idempotent(
      'getExtendedAgentCard',
      options?.tenant === undefined ? {} : { tenant: options.tenant },
      options,
    );
    this.card = card;
    return card;
  }

  /**
   * The contracts the agent publishes (decision 0018): read from the card's contracts extension
   * (default), or with `source: 'url'` fetched from its `/contracts` document.
   */
  async contracts(options?: CallOptions & { source?: 'card' | 'url' }): Promise<AgentContracts> {
    if (options?.source !== 'url') return agentContractsOfCard(this.card);
    const url = contractsUrlOf(this.resolvedCard, this.transport.url);
    return fetchContractsDocument(this.http, url, this.card.name, this.control(options));
  }

  /**
   * Sends `payload` under a contract (decision 0032): validated against the agent's published
   * input schema first (a refusal is a `ContractRefusedError` and nothing is sent), then the reply
   * is checked against the output schema. A `TypedContract` types the payload and the reply.
   */
  async sendContract<C extends string | ContractRef>(
    contract: C,
    payload: NoInfer<PayloadOf<C>>,
    options?: SendContractOptions,
  ): Promise<ContractResult<ReplyOf<C>>> {
    const port = {
      contracts: (call: CallOptions) => this.contracts(call),
      sendMessage: (request: SendMessageRequest, call: CallOptions) => this.sendMessage(request, call),
    };
    return (await sendContractMessage(port, contract, payload, options)) as ContractResult<ReplyOf<C>>;
  }

  /** `sendContract` by name, typed from these contracts: `withContracts(a, b).sendContract('a', ...)`. */
  withContracts<const Cs extends readonly TypedContract[]>(...contracts: Cs): TypedContractSender<Cs> {
    return typedContractSender(contracts, (contract, payload, options) =>
      this.sendContract(contract, payload as never, options),
    );
  }

  /**
   * Obtains now what the credentials chosen for the card need (an OAuth 2.0 token; with
   * `oauth2DeviceCode` and its `onPrompt`, the person's login), so that no call waits for it.
   * Only `options.signal` bounds it, not `timeoutMs`: a login takes as long as the person does
   * (decision 0168). They are presented on a request that is never sent (purpose `sendMessage`).
   */
  async authenticate(options: Pick<CallOptions, 'signal'> = {}): Promise<void> {
    const signal = this.control(
      options.signal === undefined ? undefined : { signal: options.signal },
    ).signal!;
    const call: OutgoingCall = {
      purpose: 'sendMessage',
      method: 'POST',
      url: new URL(this.transport.url),
      headers: {},
      body: undefined,
      attempt: 1,
    };
    await this.http.present(call, this.credentials(), signal);
  }

  /** Ends every open stream, closes kept-alive connections and gRPC channels, refuses further calls. */
  close(): void {
    this.closing.abort(new A2ALocalError('ABORTED', 'The client was closed'));
    this.wire.close?.();
    this.http.close();
  }
}

/**
 * What `A2AClient` must offer (issue 24): a method named after every operation (house style
 * rule 3), answering its result from operation-types.ts: a promise, or for a streaming operation
 * the events. Parameters are free (`getExtendedAgentCard` takes only options).
 */
type OperationMethods = {
  [Op in OperationName]: (
    ...args: never[]
  ) => Op extends StreamingOperationName
    ? AsyncIterable<OperationTypes[Op][1]>
    : Promise<OperationTypes[Op][1]>;
};

/**
 * Compile-time check only, nothing runs: an operation added to `OperationName` without an
 * `A2AClient` method fails here ("Property '…' is missing in type 'A2AClient'"), and so does a
 * method whose result drifts from the operation's.
 */
type Covers<T extends OperationMethods> = T;
type _A2AClientCoversEveryOperation = Covers<A2AClient>;

/** The credentials of the `auth` option as a list. */
function credentialList(given: Credential | readonly Credential[] | undefined): readonly Credential[] {
  return given === undefined ? [] : Array.isArray(given) ? given : [given as Credential];
}

/**
 * The executor's handle on its task: every method turns into one A2A event (status or artifact
 * update) that Concord checks against the state machine, persists, and streams. Methods throw
 * synchronously when the event is illegal (e.g. an update after the task ended), so agent bugs
 * surface where they happen.
 */
import { newId } from '../common/ids.js';
import { nowIso } from './status-clock.js';
import type { Artifact, Message, Metadata, Part, StreamResponse, TaskState } from '../../protocol/index.js';

/** Where the updater sends events; implemented by the task execution. */
export interface TaskEventSink {
  readonly taskId: string;
  readonly contextId: string;
  /** Validates and queues one event; throws if it is illegal now. */
  emit(event: StreamResponse): void;
  /** Sends a direct Message reply instead of a task (A2A 1.0 §3.1.1). */
  reply(message: Message): void;
}

/** Content for a status message: plain text, parts, or a whole message. */
export type MessageInput = string | Part[] | Message;

/** Options of `addArtifact`. */
export interface ArtifactOptions {
  /** Reuse an id to replace an artifact or, with `append`, to add chunks to it. */
  artifactId?: string;
  name?: string;
  description?: string;
  /** Adds these parts to the artifact already sent under `artifactId` (A2A 1.0 §4.2.2). */
  append?: boolean;
  /** Marks the artifact complete. */
  lastChunk?: boolean;
  metadata?: Metadata;
  extensions?: string[];
}

/** Reports progress of one task. */
export class TaskUpdater {
  constructor(private readonly sink: TaskEventSink) {}

  /** The task this updater writes to. */
  get taskId(): string {
    return this.sink.taskId;
  }

  /** The task's context. */
  get contextId(): string {
    return this.sink.contextId;
  }

  /** Builds an agent message bound to this task. */
  agentMessage(input: MessageInput, metadata?: Metadata): Message {
    if (typeof input !== 'string' && !Array.isArray(input)) return input;
    const parts: Part[] = typeof input === 'string' ? [{ text: input }] : input;
    const message: Message = {
      messageId: newId(),
      role: 'ROLE_AGENT',
      parts,
      taskId: this.sink.taskId,
      contextId: this.sink.contextId,
    };
    if (metadata !== undefined) message.metadata = metadata;
    return message;
  }

  /** Sets any state, with an optional status message. */
  updateStatus(state: TaskState, message?: MessageInput, metadata?: Metadata): void {
    const status: { state: TaskState; message?: Message; timestamp: string } = {
      state,
      timestamp: nowIso(),
    };
    if (message !== undefined) status.message = this.agentMessage(message);
    const statusUpdate: { taskId: string; contextId: string; status: typeof status; metadata?: Metadata } = {
      taskId: this.sink.taskId,
      contextId: this.sink.contextId,
      status,
    };
    if (metadata !== undefined) statusUpdate.metadata = metadata;
    this.sink.emit({ statusUpdate });
  }

  /** Moves the task to working. */
  startWork(message?: MessageInput): void {
    this.updateStatus('TASK_STATE_WORKING', message);
  }

  /** Ends the task successfully. */
  complete(message?: MessageInput): void {
    this.updateStatus('TASK_STATE_COMPLETED', message);
  }

  /** Ends the task as failed. */
  fail(message?: MessageInput): void {
    this.updateStatus('TASK_STATE_FAILED', message);
  }

  /** Ends the task as rejected by the agent. */
  reject(message?: MessageInput): void {
    this.updateStatus('TASK_STATE_REJECTED', message);
  }

  /** Ends the task as canceled. */
  cancel(message?: MessageInput): void {
    this.updateStatus('TASK_STATE_CANCELED', message);
  }

  /** Asks the client for more input; the question goes in the status message (A2A 1.0 §3.4.3). */
  requireInput(message: MessageInput): void {
    this.updateStatus('TASK_STATE_INPUT_REQUIRED', message);
  }

  /** Asks for authorization, explained in the status message (A2A 1.0 §7.6). */
  requireAuth(message: MessageInput): void {
    this.updateStatus('TASK_STATE_AUTH_REQUIRED', message);
  }

  /** Adds or extends an artifact; returns its id (generated when not given). */
  addArtifact(parts: Part[], options: ArtifactOptions = {}): string {
    const artifactId = options.artifactId ?? newId();
    const artifact: Artifact = { artifactId, parts };
    if (options.name !== undefined) artifact.name = options.name;
    if (options.description !== undefined) artifact.description = options.description;
    if (options.metadata !== undefined) artifact.metadata = options.metadata;
    if (options.extensions !== undefined) artifact.extensions = options.extensions;
    const artifactUpdate: {
      taskId: string;
      contextId: string;
      artifact: Artifact;
      append?: boolean;
      lastChunk?: boolean;
    } = { taskId: this.sink.taskId, contextId: this.sink.contextId, artifact };
    if (options.append === true) artifactUpdate.append = true;
    if (options.lastChunk !== undefined) artifactUpdate.lastChunk = options.lastChunk;
    this.sink.emit({ artifactUpdate });
    return artifactId;
  }

  /**
   * Answers with a direct Message and no task (A2A 1.0 §3.1.1). Only allowed as the first and only
   * output for a message that did not name an existing task.
   */
  reply(message: MessageInput): void {
    this.sink.reply(this.agentMessage(message));
  }
}

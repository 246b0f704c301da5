/**
 * The 0.3 enums on both 0.3 wires (A2A 0.3 §6.3; A2A 1.0 §4.1.3, §5.5). JSON-RPC uses the `types.ts` strings
 * (`"input-required"`, `"user"`); REST uses the 0.3 proto names, where canceled is spelled
 * `TASK_STATE_CANCELLED` (double L) and the numbering differs from the canonical order.
 * `unknown` / `*_UNSPECIFIED` are in no table: a task always has a real state.
 */
import type { Role, TaskState } from '../model.js';
import { isInterruptedState, isTerminalState } from '../model.js';

/** 0.3 JSON-RPC task-state strings (`types.ts` TaskState, `unknown` excluded). */
export const JSONRPC_STATE_NAMES: Readonly<Record<string, TaskState>> = Object.freeze({
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
});

/** Canonical state -> 0.3 JSON-RPC string. */
export const JSONRPC_STATE_OF: Readonly<Record<TaskState, string>> = Object.freeze({
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'rejected',
});

/** 0.3 proto `TaskState` names accepted on the REST wire (`a2a.v1`, decision 0008). */
export const REST_STATE_NAMES: Readonly<Record<string, TaskState>> = Object.freeze({
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_CANCELLED: 'TASK_STATE_CANCELED',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
});

/** Task state by 0.3 proto number (`TASK_STATE_CANCELLED = 5`, `TASK_STATE_AUTH_REQUIRED = 8`). */
export const REST_STATE_NUMBERS: readonly (TaskState | undefined)[] = [
  undefined,
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];

/** Canonical state -> 0.3 proto name; only canceled changes spelling. */
export const REST_STATE_OF: Readonly<Record<TaskState, string>> = Object.freeze({
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_CANCELED: 'TASK_STATE_CANCELLED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
});

/** 0.3 JSON-RPC role strings. */
export const JSONRPC_ROLE_NAMES: Readonly<Record<string, Role>> = Object.freeze({
  user: 'ROLE_USER',
  agent: 'ROLE_AGENT',
});

/** Canonical role -> 0.3 JSON-RPC string. */
export const JSONRPC_ROLE_OF: Readonly<Record<Role, string>> = Object.freeze({
  ROLE_USER: 'user',
  ROLE_AGENT: 'agent',
});

/** 0.3 proto `Role` names; identical to the canonical spelling. */
export const REST_ROLE_NAMES: Readonly<Record<string, Role>> = Object.freeze({
  ROLE_USER: 'ROLE_USER',
  ROLE_AGENT: 'ROLE_AGENT',
});

/** Canonical role -> 0.3 proto name (the same spelling). */
export const REST_ROLE_OF: Readonly<Record<Role, string>> = Object.freeze({
  ROLE_USER: 'ROLE_USER',
  ROLE_AGENT: 'ROLE_AGENT',
});

/** Role by 0.3 proto number (`ROLE_USER = 1`, `ROLE_AGENT = 2`). */
export const REST_ROLE_NUMBERS: readonly (Role | undefined)[] = [undefined, 'ROLE_USER', 'ROLE_AGENT'];

/**
 * The 0.3 `final` flag of a status update: true on terminal and interrupted states, after which the
 * server closes the stream (decision 0004: auth-required counts as interrupted).
 */
export function isFinalState(state: TaskState): boolean {
  return isTerminalState(state) || isInterruptedState(state);
}

/**
 * The 1.0 enums on the wire: names as in `lf.a2a.v1` (A2A 1.0 §5.5), numbers accepted on input
 * because ProtoJSON parsers should accept them. The zero value `*_UNSPECIFIED` is never valid
 * where a value is REQUIRED, so it is in neither table.
 */
import type { Role, TaskState } from '../model.js';

/** Role names accepted on the 1.0 wire. */
export const ROLE_NAMES: Readonly<Record<string, Role>> = Object.freeze({
  ROLE_USER: 'ROLE_USER',
  ROLE_AGENT: 'ROLE_AGENT',
});

/** Role by proto number (`ROLE_USER = 1`, `ROLE_AGENT = 2`). */
export const ROLE_NUMBERS: readonly (Role | undefined)[] = [undefined, 'ROLE_USER', 'ROLE_AGENT'];

/** Task-state names accepted on the 1.0 wire. */
export const TASK_STATE_NAMES: Readonly<Record<string, TaskState>> = Object.freeze({
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_CANCELED: 'TASK_STATE_CANCELED',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
});

/** Task state by proto number, as numbered in the 1.0 `TaskState` enum (not in model order). */
export const TASK_STATE_NUMBERS: readonly (TaskState | undefined)[] = [
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

/** The zero value of `TaskState`, by name and number. */
export const TASK_STATE_UNSPECIFIED = 'TASK_STATE_UNSPECIFIED';

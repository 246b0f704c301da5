import { expect } from 'vitest';
import { A2AError } from '../../src/protocol/errors.js';

/** Runs `fn`, expecting an InvalidParamsError whose first violation names `field`. */
export function expectInvalid(fn: () => unknown, field: string): A2AError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(A2AError);
  const err = caught as A2AError;
  expect(err.type).toBe('InvalidParamsError');
  expect(err.violations?.[0]?.field).toBe(field);
  return err;
}

export const clone = <T>(value: T): T => structuredClone(value);

/** Fixture access for the AUMP tests: the suite copied into fixtures/ (see its PROVENANCE.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mandate } from '../../../src/extensions/aump/index.js';

/** The fixtures folder. */
export const FIXTURES = join(import.meta.dirname, 'fixtures');
/** The conformance suite's folder (manifest.json and the case files). */
export const CONFORMANCE = join(FIXTURES, 'conformance');
/** The instant the suite is evaluated at (manifest `defaults.now`). */
export const SUITE_NOW = new Date('2026-04-25T18:00:00Z');

/** A fixture file parsed, by its path below fixtures/. */
export function fixture<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as T;
}

/** A conformance mandate by file name below conformance/mandates/. */
export function suiteMandate(name: string): Mandate {
  return fixture<Mandate>(`conformance/mandates/${name}`);
}

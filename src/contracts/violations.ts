/**
 * Turns ajv's errors into contract violations: one per failure, each at the JSON Pointer of the
 * value that failed (a missing or extra property points at that property, not at its parent), with
 * a message that names the limit and the value (DESIGN.md "contracts report every failure as
 * {path, keyword, message}"). The errors of a combinator's branches (anyOf, oneOf, contains,
 * propertyNames) are folded into that combinator's one violation: they explain it but are not
 * failures on their own.
 */
import type { ErrorObject } from 'ajv';
import { pointer } from '../protocol/internal.js';
import type { ContractViolation } from './contract-types.js';

/** Keywords whose sub-schema errors explain the keyword's failure rather than stand alone. */
const FOLDING = new Set(['anyOf', 'oneOf', 'contains', 'propertyNames']);

const MAX_SHOWN = 60;

/** A value, compact and cut short, for messages. */
function show(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}…` : json;
}

/** A value with its JSON type, for type mismatches: `string "5"`, `an array`, `null`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && Number.isInteger(value)) return `integer ${value}`;
  return `${typeof value} ${show(value)}`;
}

function countOf(value: unknown): number {
  if (typeof value === 'string') return [...value].length; // code points, as ajv counts
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

function plural(n: unknown, word: string, words = `${word}s`): string {
  return `${String(n)} ${n === 1 ? word : words}`;
}

function isWithin(child: ErrorObject, parent: ErrorObject): boolean {
  if (!child.schemaPath.startsWith(`${parent.schemaPath}/`)) return false;
  const at = parent.instancePath;
  return child.instancePath === at || child.instancePath.startsWith(`${at}/`);
}

function detail(child: ErrorObject, parent: ErrorObject, own: ContractViolation): string {
  const branch = child.schemaPath.slice(parent.schemaPath.length + 1).split('/')[0];
  // Relative to the combinator's own value, whose path the combinator's violation already names.
  const where = own.path === parent.instancePath ? '' : `${own.path.slice(parent.instancePath.length)} `;
  return parent.keyword === 'anyOf' || parent.keyword === 'oneOf'
    ? `${branch}: ${where}${own.message}`
    : `${where}${own.message}`;
}

/** The message of one error; `details` are the folded errors of a combinator. */
function messageOf(e: ErrorObject, details: string[]): string {
  const p = e.params as Record<string, unknown>;
  const data: unknown = e.data;
  const why = details.length > 0 ? ` (${details.join('; ')})` : '';
  switch (e.keyword) {
    case 'type':
      return `must be ${String(p.type).split(',').join(' or ')}, got ${describe(data)}`;
    case 'enum':
      return `must be one of [${(p.allowedValues as unknown[]).map(show).join(', ')}], got ${show(data)}`;
    case 'const':
      return `must be ${show(p.allowedValue)}, got ${show(data)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}, got ${show(data)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}, got ${show(data)}`;
    case 'minLength':
      return `must be at least ${plural(p.limit, 'character')} long, got ${countOf(data)}`;
    case 'maxLength':
      return `must be at most ${plural(p.limit, 'character')} long, got ${countOf(data)}`;
    case 'pattern':
      return `must match pattern ${show(p.pattern)}, got ${show(data)}`;
    case 'format':
      return `must be a valid ${String(p.format)}, got ${show(data)}`;
    case 'required':
      return 'is required';
    case 'dependentRequired':
    case 'dependencies':
      return `is required when "${String(p.property)}" is present`;
    case 'additionalProperties':
      return 'is not allowed (additionalProperties is false)';
    case 'unevaluatedProperties':
      return 'is not allowed (unevaluatedProperties is false)';
    case 'minProperties':
      return `must have at least ${plural(p.limit, 'property', 'properties')}, got ${countOf(data)}`;
    case 'maxProperties':
      return `must have at most ${plural(p.limit, 'property', 'properties')}, got ${countOf(data)}`;
    case 'minItems':
      return `must have at least ${plural(p.limit, 'item')}, got ${countOf(data)}`;
    case 'maxItems':
    case 'items':
    case 'unevaluatedItems':
      return `must have at most ${plural(p.limit, 'item')}, got ${countOf(data)}`;
    case 'uniqueItems':
      return `must not contain duplicates, items ${String(p.j)} and ${String(p.i)} are equal`;
    case 'contains':
      return p.maxContains !== undefined && countOf(data) >= Number(p.minContains)
        ? `must contain at most ${plural(p.maxContains, 'item')} matching "contains"`
        : `must contain at least ${plural(p.minContains, 'item')} matching "contains"`;
    case 'anyOf':
      return `must match at least one schema of anyOf${why}`;
    case 'oneOf': {
      const passing = p.passingSchemas as number[] | null;
      return passing
        ? `must match exactly one schema of oneOf, matches ${passing.join(' and ')}`
        : `must match exactly one schema of oneOf${why}`;
    }
    case 'not':
      return `must not match the "not" schema, got ${show(data)}`;
    case 'if':
      return `must match the "${String(p.failingKeyword)}" schema of an if/${String(p.failingKeyword)} rule`;
    case 'propertyNames':
      return `property name ${show(p.propertyName)} is invalid${why}`;
    case 'false schema':
      return 'is not allowed (the schema is false)';
    default:
      return e.message ?? `fails "${e.keyword}"`;
  }
}

/** Where an error points: the missing, extra or badly named property itself when there is one. */
function pathOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const child = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty;
  if (typeof child === 'string') return pointer(e.instancePath, child);
  if (e.keyword === 'propertyNames' && typeof p.propertyName === 'string') {
    return pointer(e.instancePath, p.propertyName);
  }
  return e.instancePath;
}

/** Converts ajv errors (allErrors, verbose) to violations, in ajv's order; see the file comment. */
export function toViolations(errors: readonly ErrorObject[]): ContractViolation[] {
  const folded = new Set<number>();
  const own = new Map<number, ContractViolation>();
  errors.forEach((e, index) => {
    const details: string[] = [];
    if (FOLDING.has(e.keyword)) {
      // Branch errors come before their combinator (ajv reports sub-schemas first).
      for (let i = 0; i < index; i++) {
        const child = errors[i]!;
        if (folded.has(i) || !isWithin(child, e)) continue;
        if (
          e.keyword === 'propertyNames' &&
          child.propertyName !== (e.params as { propertyName?: string }).propertyName
        ) {
          continue;
        }
        folded.add(i);
        const childViolation = own.get(i);
        if (childViolation && e.keyword !== 'contains') details.push(detail(child, e, childViolation));
      }
    }
    own.set(index, { path: pathOf(e), keyword: e.keyword, message: messageOf(e, details) });
  });
  const out: ContractViolation[] = [];
  own.forEach((v, index) => {
    if (!folded.has(index)) out.push(v);
  });
  return out;
}

/**
 * The Standard Schema interfaces (standardschema.dev, `@standard-schema/spec` 1.1.0) as far as
 * contracts read them, written here so no validator library and no spec package is needed at run
 * time or to type-check (decision 0165). Every validator that implements them fits structurally:
 * zod 4, valibot, arktype and others expose a `~standard` property with `version: 1`, a
 * `vendor`, type-only `types`, and either `validate` (Standard Schema), `jsonSchema`
 * (Standard JSON Schema) or both.
 */
import { pointer } from '../protocol/internal.js';
import type { ContractViolation } from './contract-types.js';

/** The input and output types a validator advertises (type-only; never present at run time). */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** One segment of an issue's path: a key, or an object holding the key. */
export type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };

/** One way a value failed a validator. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly StandardPathSegment[] | undefined;
}

/** What `validate` returns: the parsed value, or the issues (a failure may carry a value too). */
export type StandardResult<Output = unknown> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

/** The options of the Standard JSON Schema converter. */
export interface StandardJsonSchemaOptions {
  /** The JSON Schema dialect asked for; contracts always ask for `draft-2020-12`. */
  readonly target: string;
  /** Vendor-specific conversion settings, passed through as given. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The `~standard` properties contracts read; each validator has some of the optional ones. */
export interface StandardProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly types?: StandardTypes<Input, Output> | undefined;
  /** Standard Schema: validates (and may transform) a value. */
  readonly validate?: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** Standard JSON Schema: the JSON Schema of the accepted (`input`) or produced (`output`) values. */
  readonly jsonSchema?: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
}

/** A Standard Schema or Standard JSON Schema value: what a contract may declare instead of JSON Schema. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardProps<Input, Output>;
}

/** The type a validator accepts (Standard `InferInput`). */
export type StandardInput<S extends StandardSchema> = NonNullable<S['~standard']['types']>['input'];

/** The type a validator produces (Standard `InferOutput`). */
export type StandardOutput<S extends StandardSchema> = NonNullable<S['~standard']['types']>['output'];

/** True when `value` carries Standard properties (version 1 and a vendor). */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  if (typeof props !== 'object' || props === null) return false;
  const { version, vendor } = props as { version?: unknown; vendor?: unknown };
  return version === 1 && typeof vendor === 'string';
}

/**
 * True for a validator given where JSON Schema belongs. A JSON Schema is plain data: converters
 * may hide a `~standard` on the schemas they produce (zod does), but a validator is a function
 * (arktype), an instance of a class (zod) or an object whose `~standard` is its own visible member
 * (valibot).
 */
export function isValidator(value: unknown): value is StandardSchema {
  if (!isStandardSchema(value)) return false;
  if (typeof value === 'function') return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    (prototype !== Object.prototype && prototype !== null) ||
    Object.prototype.propertyIsEnumerable.call(value, '~standard')
  );
}

/** The JSON Pointer (RFC 6901) of an issue's path; '' is the validated value itself. */
export function issuePointer(path: readonly StandardPathSegment[] | undefined): string {
  let at = '';
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    at = pointer(at, typeof key === 'symbol' ? (key.description ?? '') : String(key));
  }
  return at;
}

/** What a validator made of a value: its violations, and the value the receiver gets. */
export interface ParsedValue {
  violations: ContractViolation[];
  value: unknown;
}

/**
 * Runs a validator's `validate` on `value`. Issues become violations whose keyword is the
 * validator's vendor (the check is its own, not a JSON Schema keyword). The contract gate is
 * synchronous, so a validator that answers with a Promise is a mistake of the agent: `where`
 * names the contract and side in the error.
 */
export function runValidator(schema: StandardSchema, value: unknown, where: string): ParsedValue {
  const props = schema['~standard'];
  const result = props.validate!(value);
  if (typeof (result as { then?: unknown }).then === 'function') {
    // Settle it quietly: a rejection nobody awaits would end the process.
    (result as Promise<unknown>).then(undefined, () => undefined);
    throw new TypeError(
      `${where}: the ${props.vendor} validator is asynchronous (validate returned a Promise); ` +
        'contracts run validators synchronously, so use synchronous checks only',
    );
  }
  const settled = result as StandardResult;
  if (settled.issues !== undefined) {
    const violations = settled.issues.map((issue) => ({
      path: issuePointer(issue.path),
      keyword: props.vendor,
      message: issue.message,
    }));
    return { violations, value };
  }
  return { violations: [], value: settled.value };
}

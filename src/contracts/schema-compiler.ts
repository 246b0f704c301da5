/**
 * Compiles contract schemas once, at load (DESIGN.md "Validation: ajv (JSON Schema 2020-12) with
 * ajv-formats, compiled once and cached"). User schemas are compiled with `strict: false`, so
 * unknown keywords and annotations people write (`examples`, `x-ui`) are tolerated, but a schema
 * that does not compile (meta-schema violation, unresolvable `$ref`, invalid regular expression)
 * is refused. Validation never coerces or fills defaults: the agent gets the payload as sent.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ContractSchema, ContractViolation } from './contract-types.js';
import { toViolations } from './violations.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object in types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Checks one value against a compiled schema; returns every violation ([] when valid). */
export type SchemaValidator = (value: unknown) => ContractViolation[];

let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (shared) return shared;
  shared = new Ajv2020({
    allErrors: true, // the seed rejects "with error listing specific failures": all of them
    strict: false,
    verbose: true, // errors carry the failing value, so messages can name it
    allowUnionTypes: true,
    logger: false, // the library never logs (DESIGN.md "Request flow")
  });
  addFormats(shared);
  return shared;
}

/** Compiles `schema`; throws an Error whose message says why the schema is unusable. */
export function compileSchema(schema: ContractSchema): SchemaValidator {
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    throw new Error(
      `must be a JSON Schema (an object or a boolean), got ${Array.isArray(schema) ? 'an array' : String(schema)}`,
    );
  }
  const instance = ajv();
  let validate;
  try {
    validate = instance.compile(schema as object | boolean);
  } finally {
    // Compiled code keeps what it resolved; dropping the schema from the registry lets contracts
    // of different agents (or input and output) reuse one `$id` without colliding.
    if (typeof schema === 'object') instance.removeSchema(schema);
  }
  return (value) => (validate(value) ? [] : toViolations(validate.errors ?? []));
}

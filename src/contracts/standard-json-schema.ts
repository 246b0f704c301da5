/**
 * A validator's JSON Schema, through the vendor-neutral Standard JSON Schema interface
 * (`~standard.jsonSchema.input({ target: 'draft-2020-12' })`; decision 0165). The result is the
 * contract's wire truth: what the card publishes and the gate compiles. Both sides of a contract
 * take the validator's *input* JSON Schema: on the wire a value is what its validator accepts,
 * and whoever receives it (the agent's gate for a payload, the caller for a reply) runs the
 * validator to get its output. No vendor converter is loaded from here: this layer is pure and
 * synchronous, so a validator without the interface gets an error saying what to do instead.
 */
import { isStandardSchema, type StandardSchema } from './standard-schema.js';

/** The dialect contracts compile (DESIGN.md: ajv, JSON Schema 2020-12). */
export const CONTRACT_JSON_SCHEMA_TARGET = 'draft-2020-12';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** What to do about a validator that gives no JSON Schema, by vendor. */
const REMEDIES: Readonly<Record<string, string>> = {
  valibot:
    'wrap it with toStandardJsonSchema() from @valibot/to-json-schema (npm install @valibot/to-json-schema)',
  zod: 'use zod 4.2 or later, whose schemas implement Standard JSON Schema',
  arktype: 'use arktype 2.1.28 or later, whose types implement Standard JSON Schema',
};

const ANY_REMEDY =
  'use a validator that implements Standard JSON Schema (zod >= 4.2, arktype >= 2.1.28, valibot ' +
  'through @valibot/to-json-schema), or declare this side as JSON Schema';

/** Where a schema is declared, for errors: `defineContract "research.query" input`. */
export function schemaPlace(contract: string, side: 'input' | 'output'): string {
  return `defineContract ${JSON.stringify(contract)} ${side}`;
}

/**
 * The JSON Schema (draft 2020-12) of what `schema` accepts. Throws a TypeError naming `place`,
 * the vendor and the remedy when the validator offers no conversion, fails to convert (a type
 * JSON Schema cannot express, such as a Date), or answers in another dialect.
 */
export function standardJsonSchema(
  schema: StandardSchema,
  place: string,
  libraryOptions?: Record<string, unknown>,
): Record<string, unknown> {
  const props = schema['~standard'];
  const convert = props.jsonSchema?.input;
  if (typeof convert !== 'function') {
    const remedy = REMEDIES[props.vendor] ?? ANY_REMEDY;
    throw new TypeError(
      `${place}: the ${props.vendor} validator gives no JSON Schema (it does not implement ` +
        `Standard JSON Schema, ~standard.jsonSchema), and contracts publish and check JSON Schema: ${remedy}`,
    );
  }
  let converted: unknown;
  try {
    converted = convert({
      target: CONTRACT_JSON_SCHEMA_TARGET,
      ...(libraryOptions === undefined ? {} : { libraryOptions }),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `${place}: the ${props.vendor} validator cannot be converted to JSON Schema (${CONTRACT_JSON_SCHEMA_TARGET}): ` +
        `${why}. Describe the wire value with types JSON Schema can express, or declare this side as JSON Schema`,
      { cause: error },
    );
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new TypeError(`${place}: the ${props.vendor} validator's JSON Schema is not an object`);
  }
  const dialect = (converted as { $schema?: unknown }).$schema;
  if (dialect !== undefined && dialect !== DIALECT) {
    throw new TypeError(
      `${place}: the ${props.vendor} validator answered with a ${String(dialect)} schema, ` +
        `though ${CONTRACT_JSON_SCHEMA_TARGET} was asked for; contracts compile JSON Schema 2020-12 only`,
    );
  }
  // Plain JSON data: some converters return objects that are validators themselves (zod's carry
  // a hidden `~standard`), and what the card publishes and ajv compiles is data only.
  return JSON.parse(JSON.stringify(converted)) as Record<string, unknown>;
}

/** The validators a contract declared, kept beside its JSON Schemas. */
export interface ContractValidators {
  readonly input?: StandardSchema;
  readonly output?: StandardSchema;
}

/** The key under which `defineContract` keeps a contract's validators (not enumerable). */
export const VALIDATORS_KEY = '~validators';

/** The validators `defineContract` attached to `contract`, if any. */
export function validatorsOf(contract: object): ContractValidators | undefined {
  const found = (contract as { [VALIDATORS_KEY]?: unknown })[VALIDATORS_KEY];
  if (typeof found !== 'object' || found === null) return undefined;
  const { input, output } = found as { input?: unknown; output?: unknown };
  const runs = (v: unknown): v is StandardSchema =>
    isStandardSchema(v) && typeof v['~standard'].validate === 'function';
  if (!runs(input) && !runs(output)) return undefined;
  return {
    ...(runs(input) ? { input } : {}),
    ...(runs(output) ? { output } : {}),
  };
}

/**
 * The AAP v0.1 JSON Schemas, loaded once from `schemas/aap/v0.1/schemas/` (copied verbatim from
 * the upstream, see schemas/aap/PROVENANCE.md) into one Ajv 2020-12 instance with formats: their
 * `$ref`s are relative (`./_primitives/money.schema.json`), so every file must be registered
 * under its `$id` before any is compiled. Validation never coerces or fills defaults.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AAP_SCHEMA_BASE_URL } from './skills.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object in types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The folder holding the schemas (the same depth below the root from src/ and dist/). */
export const AAP_SCHEMA_DIR = fileURLToPath(new URL('../../../schemas/aap/v0.1/schemas/', import.meta.url));

/** One failed check: where in the payload (JSON Pointer), which keyword, and what it said. */
export interface SchemaIssue {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  /** The value that failed (absent for a missing property). */
  received?: unknown;
}

/** Checks values against the AAP schemas by file name (`inventory-search-request.schema.json`). */
export interface AapSchemas {
  /** Every issue ([] when valid). Throws for an unknown schema name. */
  validate(schema: string, value: unknown): SchemaIssue[];
  /** The names of every loaded schema, relative to the folder (`_primitives/money.schema.json`). */
  readonly names: string[];
}

function listSchemas(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return listSchemas(full, `${prefix}${name}/`);
      return name.endsWith('.schema.json') ? [`${prefix}${name}`] : [];
    });
}

let loaded: AapSchemas | undefined;

/** The AAP schemas (loaded and compiled on first use, then shared). */
export function aapSchemas(): AapSchemas {
  if (loaded !== undefined) return loaded;
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    verbose: true,
    allowUnionTypes: true,
    logger: false,
  });
  addFormats(ajv);
  const names = listSchemas(AAP_SCHEMA_DIR);
  for (const name of names) {
    const schema = JSON.parse(readFileSync(join(AAP_SCHEMA_DIR, name), 'utf8')) as { $id?: string };
    if (schema.$id !== `${AAP_SCHEMA_BASE_URL}${name}`) {
      throw new Error(`${name}: $id ${String(schema.$id)} is not ${AAP_SCHEMA_BASE_URL}${name}`);
    }
    ajv.addSchema(schema);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (name: string): ValidateFunction => {
    let validate = compiled.get(name);
    if (validate === undefined) {
      validate = ajv.getSchema(`${AAP_SCHEMA_BASE_URL}${name}`);
      if (validate === undefined) throw new Error(`no AAP schema named ${name}`);
      compiled.set(name, validate);
    }
    return validate;
  };
  loaded = {
    names,
    validate(name, value) {
      const validate = validatorOf(name);
      return validate(value) ? [] : (validate.errors ?? []).map(toIssue);
    },
  };
  return loaded;
}

function toIssue(error: ErrorObject): SchemaIssue {
  const issue: SchemaIssue = {
    instancePath: error.instancePath,
    keyword: error.keyword,
    message: error.message ?? error.keyword,
    params: error.params as Record<string, unknown>,
  };
  if (error.keyword !== 'required' && error.keyword !== 'dependentRequired') issue.received = error.data;
  return issue;
}

/**
 * Validation against the AUMP suite's own JSON Schemas (draft 2020-12, copied verbatim into
 * `schemas/aump/`), with ajv and ajv-formats, compiled once per process on first use (DESIGN.md
 * "Validation"). Every failure is reported as `{path, keyword, message}` with `path` a JSON
 * Pointer: a missing or extra property points at that property, not at its parent.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AUMP_SCHEMA_URIS, type AumpSchemaName } from './constants.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object in types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One schema failure. */
export interface SchemaProblem {
  /** JSON Pointer (RFC 6901) of the failing value; `''` is the document itself. */
  path: string;
  /** The JSON Schema keyword that failed. */
  keyword: string;
  message: string;
}

/** What can be validated: a whole AUMP document, or a proposed action on its own. */
export type AumpSchemaTarget = AumpSchemaName | 'proposed-action';

const FILES: Record<AumpSchemaName, string> = {
  mandate: 'mandate.schema.json',
  profile: 'profile.schema.json',
  'action-evaluation': 'action-evaluation.schema.json',
  'evidence-event': 'evidence-event.schema.json',
};

let compiled: Map<AumpSchemaTarget, ValidateFunction> | undefined;

function validators(): Map<AumpSchemaTarget, ValidateFunction> {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  for (const file of Object.values(FILES)) {
    const url = new URL(`../../../schemas/aump/${file}`, import.meta.url);
    ajv.addSchema(JSON.parse(readFileSync(url, 'utf8')) as object);
  }
  const map = new Map<AumpSchemaTarget, ValidateFunction>();
  for (const name of Object.keys(FILES) as AumpSchemaName[])
    map.set(name, ajv.getSchema(AUMP_SCHEMA_URIS[name])!);
  map.set('proposed-action', ajv.getSchema(`${AUMP_SCHEMA_URIS['action-evaluation']}#/$defs/action`)!);
  compiled = map;
  return map;
}

/** Validates `value` against an AUMP schema; `[]` when it conforms. */
export function validateAumpSchema(target: AumpSchemaTarget, value: unknown): SchemaProblem[] {
  const validate = validators().get(target)!;
  if (validate(value)) return [];
  return (validate.errors ?? []).map(toProblem);
}

function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toProblem(error: ErrorObject): SchemaProblem {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty !== undefined) {
    return {
      path: `${error.instancePath}/${escape(params.missingProperty)}`,
      keyword: 'required',
      message: 'is required',
    };
  }
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
    return {
      path: `${error.instancePath}/${escape(params.additionalProperty)}`,
      keyword: 'additionalProperties',
      message: 'is not allowed here (the schema is closed)',
    };
  }
  return { path: error.instancePath, keyword: error.keyword, message: error.message ?? 'is invalid' };
}

/** A JSON Pointer as the JSONPath-like `$.a.b[0]` form AUMP uses for `paths` and reason locations. */
export function pointerToAumpPath(pointer: string, root = '$'): string {
  if (pointer === '') return root;
  let out = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(token)
      ? `[${token}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(token)
        ? `.${token}`
        : `[${JSON.stringify(token)}]`;
  }
  return out;
}

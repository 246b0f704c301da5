/**
 * Validates definition files against the published JSON Schemas (schemas/*.schema.json, draft
 * 2020-12) with ajv, compiled once per process (DESIGN.md "Validation"), and turns ajv's errors
 * into problems an author can act on: one per wrong field, in plain words, with the field's line.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { childPointer, type ProblemSink } from './definition-error.js';

const AGENT_SCHEMA = new URL('../../../schemas/agent-definition.schema.json', import.meta.url);
const HOST_SCHEMA = new URL('../../../schemas/host-config.schema.json', import.meta.url);

let compiled: { agent: ValidateFunction; host: ValidateFunction } | undefined;

function validators(): { agent: ValidateFunction; host: ValidateFunction } {
  if (compiled) return compiled;
  // verbose: the errors carry the failing data and schema, which the messages below use.
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
  const agentSchema = JSON.parse(readFileSync(AGENT_SCHEMA, 'utf8')) as { $id: string };
  const hostSchema = JSON.parse(readFileSync(HOST_SCHEMA, 'utf8')) as { $id: string };
  ajv.addSchema(agentSchema);
  ajv.addSchema(hostSchema);
  compiled = { agent: ajv.getSchema(agentSchema.$id)!, host: ajv.getSchema(hostSchema.$id)! };
  return compiled;
}

/**
 * Checks an agent markdown file's frontmatter; reports each failure to `sink`. `runnable: false`
 * (definitions read to describe agents, not to run them) accepts an agent that names neither a
 * `model` nor a `handler` (decision 0150).
 */
export function validateAgentFrontmatter(data: unknown, sink: ProblemSink, runnable = true): boolean {
  return run(validators().agent, data, sink, runnable);
}

/** Checks a host config document (including its agents); `runnable` as for an agent file. */
export function validateHostConfigDocument(data: unknown, sink: ProblemSink, runnable = true): boolean {
  return run(validators().host, data, sink, runnable);
}

function run(validate: ValidateFunction, data: unknown, sink: ProblemSink, runnable: boolean): boolean {
  if (validate(data)) return true;
  const errors = simplify(validate.errors ?? []).filter((e) => runnable || !isMissingRunner(e));
  for (const error of errors) {
    const { field, message } = describe(error);
    sink.add(field, message);
  }
  return errors.length === 0;
}

/**
 * The schemas' "a model agent or a code agent" choice, failed because the agent names neither:
 * only running the agent needs one. Naming both is still a mistake (`passingSchemas` is set then).
 */
function isMissingRunner(error: ErrorObject): boolean {
  if (error.keyword !== 'oneOf' || (error.params as { passingSchemas?: unknown }).passingSchemas !== null) {
    return false;
  }
  const required = (error.schema as Array<{ required?: string[] }>).map((b) => b.required?.join(','));
  return required.length === 2 && required.includes('model') && required.includes('handler');
}

/**
 * Collapses the branch errors of `anyOf`/`oneOf`: when the value's type picks exactly one branch,
 * only that branch's errors are kept (they are the specific ones); otherwise one error names the
 * branches by their `title`. `if` errors only repeat what the `then` branch reports.
 */
function simplify(errors: ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const combinators = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const combinator of combinators) {
    if (dropped.has(combinator)) continue;
    const inBranch = (e: ErrorObject, prefix: string): boolean =>
      e !== combinator &&
      e.schemaPath.startsWith(prefix) &&
      (e.instancePath === combinator.instancePath ||
        e.instancePath.startsWith(`${combinator.instancePath}/`));
    const branches = combinator.schema as Array<{ type?: string | string[] }>;
    const applicable = branches.flatMap((b, i) =>
      b.type === undefined || matchesType(combinator.data, b.type) ? [i] : [],
    );
    const only = applicable.length === 1 ? applicable[0] : undefined;
    for (const e of errors) {
      if (!inBranch(e, `${combinator.schemaPath}/`)) continue;
      if (only === undefined || !inBranch(e, `${combinator.schemaPath}/${only}/`)) dropped.add(e);
    }
    if (only !== undefined) dropped.add(combinator);
  }
  return errors.filter((e) => !dropped.has(e) && e.keyword !== 'if');
}

function matchesType(data: unknown, type: string | string[]): boolean {
  const actual = typeName(data);
  return (Array.isArray(type) ? type : [type]).some(
    (t) => t === actual || (t === 'number' && actual === 'integer'),
  );
}

function typeName(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'array';
  if (typeof data === 'number' && Number.isInteger(data)) return 'integer';
  return typeof data;
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'a mapping (object)',
  array: 'a list (array)',
  null: 'null',
};

function describe(error: ErrorObject): { field: string; message: string } {
  const field = error.instancePath;
  const got = `(got ${JSON.stringify(error.data) ?? typeName(error.data)})`;
  const title = (error.parentSchema as { title?: string } | undefined)?.title;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        field: childPointer(field, String(params.missingProperty)),
        message: 'required field missing',
      };
    case 'additionalProperties':
      return { field: childPointer(field, String(params.additionalProperty)), message: 'unknown field' };
    case 'type': {
      const wanted = String(params.type)
        .split(',')
        .map((t) => ARTICLES[t] ?? t)
        .join(' or ');
      const scalar = error.data === null || typeof error.data !== 'object';
      const shown = scalar ? JSON.stringify(error.data) : typeName(error.data);
      // YAML reads `version: 1.0` as a number; say how to keep it a string.
      const hint =
        params.type === 'string' && scalar && error.data !== null ? '; quote it to keep it a string' : '';
      return { field, message: `must be ${wanted} (got ${shown})${hint}` };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { field, message: `${error.message ?? 'out of range'} ${got}` };
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return { field, message: Number(params.limit) === 1 ? 'must not be empty' : `${error.message}` };
    case 'pattern':
      return { field, message: `must be ${title ?? `a string matching ${String(params.pattern)}`} ${got}` };
    case 'enum':
      return {
        field,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} ${got}`,
      };
    case 'const':
      return { field, message: `must be ${JSON.stringify(params.allowedValue)} ${got}` };
    case 'anyOf':
    case 'oneOf': {
      const titles = (error.schema as Array<{ title?: string }>).map((b) => b.title ?? 'a valid alternative');
      const passing = params.passingSchemas;
      return Array.isArray(passing)
        ? { field, message: `must be only one of: ${titles.join(', ')}` }
        : { field, message: `must be ${titles.join(' or ')}` };
    }
    default:
      return { field, message: error.message ?? `fails ${error.keyword}` };
  }
}

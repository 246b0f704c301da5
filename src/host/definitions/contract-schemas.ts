/**
 * Checks that each contract's `input` and `output` is itself a valid JSON Schema (draft 2020-12)
 * before any message is validated against it, so a broken contract fails at load, at its line,
 * rather than on the first request (OpenClaw PR #19293 a2a-contracts.md "Contract schema reference"; the
 * upstream accepted any object, see decision 0016). A separate ajv instance in strict
 * mode catches unknown keywords, unknown formats and unresolvable `$ref`s as well as meta-schema
 * violations.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../card/index.js';
import type { ProblemSink } from './definition-error.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object in types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

let checker: Ajv2020 | undefined;

function contractAjv(): Ajv2020 {
  if (checker) return checker;
  checker = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(checker);
  return checker;
}

/** Reports a "bad contract schema" problem at `field` when `schema` is not a usable JSON Schema. */
export function checkContractSchema(schema: JsonSchema, field: string, sink: ProblemSink): void {
  const ajv = contractAjv();
  if (!ajv.validateSchema(schema)) {
    // One message per schema location: the meta-schema's anyOf branches repeat themselves.
    const seen = new Set<string>();
    const details = (ajv.errors ?? []).flatMap((e) => {
      if (seen.has(e.instancePath)) return [];
      seen.add(e.instancePath);
      return [`${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`];
    });
    sink.add(field, `bad contract schema: ${details.join('; ')}`);
    return;
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    sink.add(field, `bad contract schema: ${(error as Error).message}`);
  } finally {
    // Contracts of different agents may reuse a `$id`; each is checked on its own.
    ajv.removeSchema(schema as object);
  }
}

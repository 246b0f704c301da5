/**
 * The compiled contracts of one agent (OpenClaw PR #19293 a2a-contracts.md "Declaring contracts"): built once
 * at load by `compileContracts`, then asked for input and output validation on every message.
 * A `ContractSet` also implements the server's contract gate seam (`admit`, `checkOutput`), so the
 * server can use one without this layer knowing the server.
 */
import type { Message } from '../protocol/index.js';
import { ContractLoadError, type ContractLoadProblem } from './contract-load-error.js';
import type {
  ContractInvocation,
  ContractSection,
  ContractSpec,
  ContractViolation,
  NamedContractSpec,
  OutputPolicy,
} from './contract-types.js';
import { DEFAULT_DEPRECATION_MESSAGE } from './contract-types.js';
import { readDeclarations } from './declaration-checks.js';
import { gateMessage } from './gate.js';
import { compileSchema, type SchemaValidator } from './schema-compiler.js';
import { isValidator, runValidator, type ParsedValue, type StandardSchema } from './standard-schema.js';

/** The deprecation warnings of a contract, in the seed's order; [] when it is not deprecated. */
export function deprecationWarnings(spec: ContractSpec): string[] {
  if (spec.deprecated !== true) return [];
  // Seed "Versioning & deprecation": the message (or the default), then the replacement.
  const warnings = [spec.deprecatedMessage ?? DEFAULT_DEPRECATION_MESSAGE];
  if (spec.supersededBy !== undefined) warnings.push(`Use "${spec.supersededBy}" instead.`);
  return warnings;
}

/**
 * Checks a value against a side of a contract: its JSON Schema first (the wire truth), then, when
 * that passes and the contract was declared with a validator, the validator itself, for what JSON
 * Schema cannot say (refinements) and for the value the receiver gets (transforms, defaults).
 */
type SideParser = (value: unknown) => ParsedValue;

function sideParser(
  schema: SchemaValidator | undefined,
  validator: StandardSchema | undefined,
  where: string,
): SideParser | undefined {
  if (validator === undefined) {
    return schema === undefined ? undefined : (value) => ({ violations: schema(value), value });
  }
  return (value) => {
    const violations = schema?.(value) ?? [];
    return violations.length > 0 ? { violations, value } : runValidator(validator, value, where);
  };
}

/** One compiled contract. */
interface CompiledContract {
  readonly declared: NamedContractSpec;
  readonly input: SideParser | undefined;
  readonly output: SideParser | undefined;
  readonly warnings: readonly string[];
  /** The contract's own policy, else the section's. */
  readonly outputPolicy: OutputPolicy;
}

/** An agent's compiled contracts; create with `compileContracts`. */
export class ContractSet {
  /** The agent the contracts belong to (used in rejection messages). */
  readonly agentId: string;
  /** Whether plain (non-contract) messages are delivered. */
  readonly allowFreeform: boolean;
  /** The section's default output policy (a contract may override it; see `outputPolicyOf`). */
  readonly outputPolicy: OutputPolicy;
  private readonly contracts: ReadonlyMap<string, CompiledContract>;
  private readonly nameList: readonly string[];

  /** Use `compileContracts`; this constructor trusts its input. */
  constructor(
    agentId: string,
    allowFreeform: boolean,
    contracts: ReadonlyMap<string, CompiledContract>,
    outputPolicy: OutputPolicy = 'fail',
  ) {
    this.agentId = agentId;
    this.allowFreeform = allowFreeform;
    this.outputPolicy = outputPolicy;
    this.contracts = contracts;
    this.nameList = Object.freeze([...contracts.keys()]);
  }

  /** How many contracts the agent declares. */
  get size(): number {
    return this.contracts.size;
  }

  /** Contract names in declaration order. */
  names(): readonly string[] {
    return this.nameList;
  }

  /** Whether the agent declares `name`. */
  has(name: string): boolean {
    return this.contracts.has(name);
  }

  /** The declaration of `name`, as written (with its name), or undefined. */
  get(name: string): NamedContractSpec | undefined {
    return this.contracts.get(name)?.declared;
  }

  /** Validates an input payload; [] when valid or when the contract has no input schema. */
  validateInput(name: string, payload: unknown): ContractViolation[] {
    return this.require(name).input?.(payload).violations ?? [];
  }

  /**
   * Validates an input payload and gives the value the agent gets: the payload as sent, or what
   * the contract's input validator made of it (decision 0165).
   */
  parseInput(name: string, payload: unknown): { violations: ContractViolation[]; value: unknown } {
    return this.require(name).input?.(payload) ?? { violations: [], value: payload };
  }

  /** Validates a reply value; [] when valid or when the contract has no output schema. */
  validateOutput(name: string, value: unknown): ContractViolation[] {
    return this.require(name).output?.(value).violations ?? [];
  }

  /** The invocation for a payload already validated against `name`. */
  invocation(name: string, payload: unknown, correlationId?: string): ContractInvocation {
    const { declared, warnings } = this.require(name);
    const invocation: ContractInvocation = {
      name,
      payload,
      requiresApproval: declared.requiresApproval === true,
      warnings: [...warnings],
    };
    if (declared.description !== undefined) invocation.description = declared.description;
    if (declared.version !== undefined) invocation.version = declared.version;
    if (correlationId !== undefined) invocation.correlationId = correlationId;
    if (declared.output !== undefined) invocation.outputSchema = declared.output;
    return invocation;
  }

  /** Server gate seam: the invocation of a contract message, undefined for any other delivery. */
  admit(message: Message): ContractInvocation | undefined {
    const result = gateMessage(this, this.agentId, message);
    return result.kind === 'contract' ? result.invocation : undefined;
  }

  /** Server gate seam: same as `validateOutput`. */
  checkOutput(name: string, value: unknown): ContractViolation[] {
    return this.validateOutput(name, value);
  }

  /** Server gate seam: the output policy of `name` (its own, else the section's). */
  outputPolicyOf(name: string): OutputPolicy {
    return this.contracts.get(name)?.outputPolicy ?? this.outputPolicy;
  }

  private require(name: string): CompiledContract {
    const contract = this.contracts.get(name);
    if (!contract) {
      throw new RangeError(`Agent "${this.agentId}" does not declare contract "${name}"`);
    }
    return contract;
  }
}

/**
 * Compiles an agent's `a2a` section. Throws `ContractLoadError` listing every problem: a schema
 * that does not compile, a `supersededBy` naming a missing contract, a repeated name, a field of
 * the wrong type.
 */
export function compileContracts(agentId: string, section: ContractSection = {}): ContractSet {
  const problems: ContractLoadProblem[] = [];
  const declared = readDeclarations(section, problems);
  const compiled = new Map<string, CompiledContract>();
  for (const { name, spec, field, validators } of declared) {
    const schemaOf = (side: 'input' | 'output'): SideParser | undefined => {
      const schema = spec[side];
      if (isValidator(schema)) {
        problems.push({
          contract: name,
          field: `${field}/${side}`,
          message:
            `is a ${schema['~standard'].vendor} validator, not JSON Schema: declare the contract with ` +
            'defineContract(), which converts it to JSON Schema',
        });
        return undefined;
      }
      const validator = validators?.[side];
      if (schema === undefined)
        return sideParser(undefined, validator, `Contract ${JSON.stringify(name)} ${side}`);
      try {
        return sideParser(compileSchema(schema), validator, `Contract ${JSON.stringify(name)} ${side}`);
      } catch (error) {
        problems.push({
          contract: name,
          field: `${field}/${side}`,
          message: `does not compile: ${(error as Error).message}`,
        });
        return undefined;
      }
    };
    const input = schemaOf('input');
    const output = schemaOf('output');
    if (compiled.has(name)) continue;
    const warnings = Object.freeze(deprecationWarnings(spec));
    const outputPolicy = spec.outputPolicy ?? section.outputPolicy ?? 'fail';
    compiled.set(name, { declared: { name, ...spec }, input, output, warnings, outputPolicy });
  }
  if (problems.length > 0) throw new ContractLoadError(agentId, problems);
  return new ContractSet(agentId, section.allowFreeform !== false, compiled, section.outputPolicy ?? 'fail');
}

/** Validates a reply against `name`'s output schema (decision 0030); [] when it conforms. */
export function validateContractOutput(set: ContractSet, name: string, value: unknown): ContractViolation[] {
  return set.validateOutput(name, value);
}

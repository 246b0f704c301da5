/**
 * Reads an `a2a` section into named contracts and reports what is wrong with it, field by field,
 * before any schema is compiled. The host's loader validates definitions against its own JSON
 * Schema, but this layer is also used directly from code, so it checks what it relies on.
 */
import { pointer } from '../protocol/internal.js';
import type { ContractLoadProblem } from './contract-load-error.js';
import type { ContractSection, ContractSpec, NamedContractSpec } from './contract-types.js';
import { validatorsOf, type ContractValidators } from './standard-json-schema.js';

/** A declared contract with the JSON Pointer it was declared at. */
export interface DeclaredContract {
  name: string;
  spec: ContractSpec;
  /** e.g. `/contracts/research.request` (map form) or `/contracts/0` (list form). */
  field: string;
  /** The validators `defineContract` kept on the declaration (decision 0165), if any. */
  validators?: ContractValidators;
}

/** A declared contract, with the validators of `entry` when it came from `defineContract`. */
function declaredOf(name: string, spec: ContractSpec, field: string, entry: object): DeclaredContract {
  const validators = validatorsOf(entry);
  return validators === undefined ? { name, spec, field } : { name, spec, field, validators };
}

const STRING_FIELDS = ['description', 'version', 'deprecatedMessage', 'supersededBy'] as const;
const BOOLEAN_FIELDS = ['requiresApproval', 'deprecated'] as const;
const OUTPUT_POLICIES: readonly unknown[] = ['fail', 'warn'];

function policyProblem(value: unknown): string | undefined {
  if (value === undefined || OUTPUT_POLICIES.includes(value)) return undefined;
  return `must be "fail" or "warn", got ${JSON.stringify(value) ?? kindOf(value)}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The contracts of a section in declaration order; problems go to `problems`. */
export function readDeclarations(
  section: ContractSection,
  problems: ContractLoadProblem[],
): DeclaredContract[] {
  const raw: unknown = section.contracts;
  if (section.allowFreeform !== undefined && typeof section.allowFreeform !== 'boolean') {
    problems.push({
      contract: '',
      field: '/allowFreeform',
      message: `must be a boolean, got ${kindOf(section.allowFreeform)}`,
    });
  }
  const sectionPolicy = policyProblem(section.outputPolicy);
  if (sectionPolicy !== undefined) {
    problems.push({ contract: '', field: '/outputPolicy', message: sectionPolicy });
  }
  if (raw === undefined) return [];
  const declared: DeclaredContract[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((entry: unknown, index) => {
      const field = `/contracts/${index}`;
      if (!isObject(entry)) {
        problems.push({ contract: '', field, message: `must be an object, got ${kindOf(entry)}` });
        return;
      }
      const { name, ...spec } = entry as unknown as NamedContractSpec;
      if (typeof name !== 'string') {
        problems.push({
          contract: '',
          field: `${field}/name`,
          message: `must be a string, got ${kindOf(name)}`,
        });
        return;
      }
      declared.push(declaredOf(name, spec, field, entry));
    });
  } else if (isObject(raw)) {
    for (const [name, spec] of Object.entries(raw)) {
      const field = pointer('/contracts', name);
      if (!isObject(spec)) {
        problems.push({ contract: name, field, message: `must be an object, got ${kindOf(spec)}` });
        continue;
      }
      declared.push(declaredOf(name, spec as ContractSpec, field, spec));
    }
  } else {
    problems.push({
      contract: '',
      field: '/contracts',
      message: `must be an object or a list, got ${kindOf(raw)}`,
    });
  }
  checkNames(declared, problems);
  for (const entry of declared) checkFields(entry, problems);
  checkSuccession(declared, problems);
  return declared;
}

function checkNames(declared: DeclaredContract[], problems: ContractLoadProblem[]): void {
  const first = new Map<string, string>();
  for (const { name, field } of declared) {
    if (name.trim() === '')
      problems.push({ contract: name, field, message: 'contract name must not be empty' });
    const earlier = first.get(name);
    if (earlier !== undefined) {
      // Names identify contracts within an agent (seed "Discovery"); a repeat would shadow one.
      problems.push({
        contract: name,
        field,
        message: `duplicate contract name "${name}" (first declared at ${earlier})`,
      });
    } else first.set(name, field);
  }
}

function checkFields({ name, spec, field }: DeclaredContract, problems: ContractLoadProblem[]): void {
  const record = spec as Record<string, unknown>;
  for (const key of STRING_FIELDS) {
    const value = record[key];
    if (value !== undefined && typeof value !== 'string') {
      problems.push({
        contract: name,
        field: `${field}/${key}`,
        message: `must be a string, got ${kindOf(value)}`,
      });
    }
  }
  for (const key of BOOLEAN_FIELDS) {
    const value = record[key];
    if (value !== undefined && typeof value !== 'boolean') {
      problems.push({
        contract: name,
        field: `${field}/${key}`,
        message: `must be a boolean, got ${kindOf(value)}`,
      });
    }
  }
  const policy = policyProblem(record.outputPolicy);
  if (policy !== undefined)
    problems.push({ contract: name, field: `${field}/outputPolicy`, message: policy });
}

/** `supersededBy` must name another contract of the agent, and successions must not loop. */
function checkSuccession(declared: DeclaredContract[], problems: ContractLoadProblem[]): void {
  const byName = new Map(declared.map((d) => [d.name, d]));
  for (const { name, spec, field } of declared) {
    const next = spec.supersededBy;
    if (typeof next !== 'string') continue;
    if (next === name) {
      problems.push({
        contract: name,
        field: `${field}/supersededBy`,
        message: 'a contract cannot supersede itself',
      });
      continue;
    }
    if (!byName.has(next)) {
      const available = declared.map((d) => d.name).join(', ');
      problems.push({
        contract: name,
        field: `${field}/supersededBy`,
        message: `names contract "${next}", which this agent does not declare (declared: ${available})`,
      });
      continue;
    }
    const chain = [name];
    let current: string | undefined = next;
    while (current !== undefined && !chain.includes(current)) {
      chain.push(current);
      const successor: unknown = byName.get(current)?.spec.supersededBy;
      current = typeof successor === 'string' ? successor : undefined;
    }
    // Report a loop once, at the member whose name sorts first, so A->B->A is one problem.
    if (current === name && [...chain].sort()[0] === name) {
      problems.push({
        contract: name,
        field: `${field}/supersededBy`,
        message: `supersededBy forms a cycle (${[...chain, name].join(' -> ')}): no contract replaces them`,
      });
    }
  }
}

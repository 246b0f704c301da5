/**
 * Reading and checking an AAP request (seed aap-http-json-binding.md: one typed DataPart per
 * message, `{data: {type: "<skill>.request", …}, mediaType: "application/vnd.autoagent.…"}`):
 * which skill it invokes, then the request checked against that skill's schema, each failure
 * mapped to the AAP code the errors document prefers — a missing consent for customer data is
 * CONTACT_CONSENT_REQUIRED, a missing required field MISSING_REQUIRED_FIELD, anything else
 * SCHEMA_VALIDATION_FAILED — with `instancePath` pointing into the AAP payload.
 */
import type { Message } from '../../protocol/index.js';
import { aapError } from './aap-errors.js';
import { aapSchemas, type SchemaIssue } from './schema-registry.js';
import { AAP_SKILLS, skillForRequestType, type AapSkill } from './skills.js';

/** A request the profile accepted as addressed to one of its skills (not yet schema-checked). */
export interface AapRequest {
  skill: AapSkill;
  payload: Record<string, unknown>;
  /** Index of the DataPart in `message.parts`. */
  partIndex: number;
}

const TYPE_PATTERN = /^[a-z_]+(\.[a-z_]+){1,2}$/;
/** Media types a request part may also be labelled with (generic JSON). */
const GENERIC_JSON = new Set(['application/json', 'application/vnd.autoagent+json']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `type` of the message's AAP DataPart, if it has one (cheap: for rate-limit keys). */
export function peekRequestType(message: Message): string | undefined {
  for (const part of message.parts) {
    if (isObject(part.data) && typeof part.data.type === 'string') return part.data.type;
  }
  return undefined;
}

/** Finds the AAP request in a message and its skill; throws the AAP refusal otherwise. */
export function readAapRequest(message: Message, now: Date): AapRequest {
  const indexes = message.parts.flatMap((part, index) => (part.data !== undefined ? [index] : []));
  if (indexes.length === 0) {
    throw aapError('MISSING_REQUIRED_FIELD', 'The message carries no AAP request: send one data part', {
      details: { instancePath: '/message/parts', expected: 'one DataPart with an AAP request' },
      now,
    });
  }
  if (indexes.length > 1) {
    throw aapError('SCHEMA_VALIDATION_FAILED', 'Send exactly one AAP request data part per message', {
      details: { instancePath: '/message/parts', received: indexes.length },
      now,
    });
  }
  const partIndex = indexes[0]!;
  const part = message.parts[partIndex] as { data: unknown; mediaType?: string };
  const payload = part.data;
  if (!isObject(payload)) {
    throw aapError('SCHEMA_VALIDATION_FAILED', 'The AAP request must be a JSON object', {
      details: { instancePath: '', received: Array.isArray(payload) ? 'array' : typeof payload },
      now,
    });
  }
  const type = payload.type;
  if (type === undefined) {
    throw aapError('MISSING_REQUIRED_FIELD', 'type is required', {
      details: { instancePath: '/type' },
      now,
    });
  }
  if (typeof type !== 'string' || !TYPE_PATTERN.test(type) || !type.endsWith('.request')) {
    throw aapError(
      'SCHEMA_VALIDATION_FAILED',
      'type must be an AAP request type such as "inventory.search.request"',
      {
        details: { instancePath: '/type', received: type },
        now,
      },
    );
  }
  const skill = skillForRequestType(type);
  if (skill === undefined) {
    throw aapError(
      'UNSUPPORTED_SKILL',
      `This agent does not offer the skill ${type.slice(0, -'.request'.length)}`,
      {
        details: { type, supported_skills: AAP_SKILLS.map((each) => each.id) },
        now,
      },
    );
  }
  const mediaType = part.mediaType;
  if (mediaType !== undefined && mediaType !== skill.requestMediaType && !GENERIC_JSON.has(mediaType)) {
    throw aapError(
      'SCHEMA_VALIDATION_FAILED',
      `The data part's mediaType ${mediaType} does not match ${type}; expected ${skill.requestMediaType}`,
      { details: { instancePath: `/message/parts/${partIndex}/mediaType`, received: mediaType }, now },
    );
  }
  return { skill, payload, partIndex };
}

/** "/filters/year_min" -> "filters.year_min" (the AAP errors document's spelling). */
function dotted(pointer: string): string {
  if (pointer === '') return 'request';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** Keywords that only report that a branch failed; the branch's own errors say why. */
const WRAPPERS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

/** Checks the request against its skill's schema; throws the AAP refusal for the first failure. */
export function validateAapRequest(request: AapRequest, now: Date): void {
  const issues = aapSchemas().validate(request.skill.requestSchema, request.payload);
  if (issues.length === 0) return;
  const consent = issues.find(
    (i) => i.keyword === 'dependentRequired' && i.params.missingProperty === 'consent',
  );
  if (consent !== undefined) {
    const scope = request.skill.consentScope;
    throw aapError(
      'CONTACT_CONSENT_REQUIRED',
      `Customer info present but no ConsentGrant. Provide a 'consent' block with scope including '${scope ?? ''}'.`,
      { details: { missing: 'consent', ...(scope === undefined ? {} : { expected_scope: scope }) }, now },
    );
  }
  const core = issues.filter((i) => !WRAPPERS.has(i.keyword));
  const reported = core.length > 0 ? core : issues;
  const summary = reported.slice(0, 10).map((i) => ({ instancePath: pathOf(i), message: i.message }));
  if (reported.every((i) => i.keyword === 'required' || i.keyword === 'dependentRequired')) {
    throw missingField(reported, summary, now);
  }
  const first = reported.find((i) => i.keyword !== 'required') ?? reported[0]!;
  const path = pathOf(first);
  const message = `${dotted(path)} ${describe(first)}`;
  throw aapError('SCHEMA_VALIDATION_FAILED', message, {
    details: {
      instancePath: path,
      ...(first.received === undefined ? {} : { received: first.received }),
      keyword: first.keyword,
      ...(summary.length > 1 ? { errors: summary } : {}),
    },
    now,
  });
}

function pathOf(issue: SchemaIssue): string {
  if (issue.keyword === 'additionalProperties') {
    return `${issue.instancePath}/${String(issue.params.additionalProperty)}`;
  }
  if (issue.keyword === 'required' || issue.keyword === 'dependentRequired') {
    return `${issue.instancePath}/${String(issue.params.missingProperty)}`;
  }
  return issue.instancePath;
}

function describe(issue: SchemaIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a field of this request';
  if (issue.keyword === 'type') return `must be ${article(String(issue.params.type))}`;
  if (issue.keyword === 'enum') {
    const allowed = (issue.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return `must be one of ${allowed}`;
  }
  return issue.message;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function missingField(
  issues: SchemaIssue[],
  summary: { instancePath: string; message: string }[],
  now: Date,
): Error {
  const first = issues[0]!;
  // anyOf branches of `required` (vin | stock | vehicle_id) report one issue per branch.
  const siblings = issues.filter((i) => i.instancePath === first.instancePath);
  const names = siblings.map((i) => String(i.params.missingProperty));
  const where = first.instancePath === '' ? '' : ` in ${dotted(first.instancePath)}`;
  const message =
    names.length > 1
      ? `One of ${names.join(', ')} is required${where}`
      : `${dotted(pathOf(first))} is required`;
  return aapError('MISSING_REQUIRED_FIELD', message, {
    details: {
      instancePath: names.length > 1 ? first.instancePath : pathOf(first),
      ...(names.length > 1 ? { one_of: names } : { missing: names[0] }),
      ...(summary.length > names.length ? { errors: summary } : {}),
    },
    now,
  });
}

/**
 * Checks an AgentCard's wire JSON against the rules of its version (A2A 1.0 §4.4.1) and the mistakes
 * that make a card useless in practice: missing REQUIRED fields, no skills, duplicate skill ids,
 * URLs that do not parse, requirements naming undeclared schemes, unknown bindings, duplicate
 * interfaces. Every problem carries the JSON Pointer of the member at fault. Reachability of the
 * URLs is the CLI's business (it does I/O); this is pure.
 */
import { lintLegacyInterfaces, lintSupportedInterfaces } from './card-lint-interfaces.js';
import {
  at,
  checkUrl,
  isObject,
  kindOf,
  optionalBoolean,
  optionalUrl,
  ProblemList,
  readArray,
  requiredString,
  stringEntries,
  type CardProblem,
  type CardVersion,
  type Json,
} from './card-lint-kit.js';
import { lintSecurity } from './card-lint-security.js';

// type/subtype, optionally followed by parameters (RFC 6838 §4.2 restricted names, loosely).
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9*][\w!#$&^.+*-]*(?:\s*;.*)?$/;

function lintModes(list: unknown[] | undefined, path: string, out: ProblemList): void {
  if (list === undefined) return;
  stringEntries(list, path, out).forEach((mode, index) => {
    if (!MEDIA_TYPE.test(mode)) out.warn(at(path, index), `"${mode}" is not a media type (type/subtype)`);
  });
}

function lintCapabilities(card: Json, version: CardVersion, out: ProblemList): void {
  const caps = card.capabilities;
  if (caps === undefined || caps === null) {
    out.error('/capabilities', 'capabilities is required');
    return;
  }
  if (!isObject(caps)) {
    out.error('/capabilities', `capabilities must be an object, got ${kindOf(caps)}`);
    return;
  }
  const flags = ['streaming', 'pushNotifications'];
  flags.push(version === '1.0' ? 'extendedAgentCard' : 'stateTransitionHistory');
  for (const flag of flags) optionalBoolean(caps, flag, '/capabilities', out);
  if (version === '0.3') optionalBoolean(card, 'supportsAuthenticatedExtendedCard', '', out);
  readArray(caps, 'extensions', '/capabilities', out, 'optional')?.forEach((ext, index) => {
    const path = at('/capabilities/extensions', index);
    if (!isObject(ext)) out.error(path, `an extension must be an object, got ${kindOf(ext)}`);
    else if (requiredString(ext, 'uri', path, out) !== undefined) optionalBoolean(ext, 'required', path, out);
  });
}

/**
 * Skills: a non-empty list (A2A 1.0 §5.7), each with id, name, description and tags
 * (A2A 1.0 §4.4.5), ids unique (clients address skills by id).
 */
function lintSkills(card: Json, version: CardVersion, out: ProblemList): void {
  const skills = readArray(card, 'skills', '', out, 'non-empty');
  if (skills === undefined) return;
  const ids = new Map<string, number>();
  skills.forEach((skill, index) => {
    const path = at('/skills', index);
    if (!isObject(skill)) {
      out.error(path, `a skill must be an object, got ${kindOf(skill)}`);
      return;
    }
    const id = requiredString(skill, 'id', path, out);
    requiredString(skill, 'name', path, out);
    requiredString(skill, 'description', path, out);
    // A2A 1.0 §5.7: REQUIRED lists are non-empty; the 0.3 schema has no minimum.
    const tags = readArray(skill, 'tags', path, out, version === '1.0' ? 'non-empty' : 'should-fill');
    if (tags !== undefined) stringEntries(tags, at(path, 'tags'), out);
    const examples = readArray(skill, 'examples', path, out, 'optional');
    if (examples !== undefined) stringEntries(examples, at(path, 'examples'), out);
    lintModes(readArray(skill, 'inputModes', path, out, 'optional'), at(path, 'inputModes'), out);
    lintModes(readArray(skill, 'outputModes', path, out, 'optional'), at(path, 'outputModes'), out);
    if (id === undefined || id === '') return;
    const first = ids.get(id);
    if (first !== undefined) out.error(at(path, 'id'), `"${id}" is already the id of /skills/${first}`);
    else ids.set(id, index);
  });
}

function lintProvider(card: Json, out: ProblemList): void {
  const provider = card.provider;
  if (provider === undefined) return;
  if (!isObject(provider)) {
    out.error('/provider', `provider must be an object, got ${kindOf(provider)}`);
    return;
  }
  requiredString(provider, 'organization', '/provider', out);
  const url = requiredString(provider, 'url', '/provider', out);
  if (url !== undefined && url !== '') checkUrl(url, '/provider/url', out);
}

/**
 * A2A 1.0 §8.4.1 signs the card after ProtoJSON presence rules, which drop default values of
 * members without tracked presence. Such a value in the served JSON makes the payload a strict
 * verifier rebuilds differ from the JSON as received, so signatures break for some clients.
 */
function lintProtoDefaults(card: Json, out: ProblemList): void {
  const dropped = (value: unknown): boolean =>
    value === '' ||
    value === false ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0);
  const check = (obj: unknown, path: string, keys: string[]): void => {
    if (!isObject(obj)) return;
    for (const key of keys) {
      if (obj[key] !== undefined && dropped(obj[key])) {
        out.warn(
          at(path, key),
          'is a default value ProtoJSON omits (A2A 1.0 §8.4.1); leave it out so signatures verify',
        );
      }
    }
  };
  check(card, '', ['securitySchemes', 'securityRequirements', 'signatures']);
  check(card.capabilities, '/capabilities', ['extensions']);
  const each = (key: string, fn: (entry: unknown, path: string) => void): void => {
    if (Array.isArray(card[key])) card[key].forEach((entry, index) => fn(entry, at(`/${key}`, index)));
  };
  each('skills', (skill, path) => {
    check(skill, path, ['examples', 'inputModes', 'outputModes', 'securityRequirements']);
    if (isObject(skill) && Array.isArray(skill.securityRequirements)) {
      skill.securityRequirements.forEach((req, i) =>
        lintRequirementDefaults(req, at(at(path, 'securityRequirements'), i), check),
      );
    }
  });
  each('securityRequirements', (req, path) => lintRequirementDefaults(req, path, check));
  each('supportedInterfaces', (entry, path) => check(entry, path, ['tenant']));
  if (isObject(card.capabilities) && Array.isArray(card.capabilities.extensions)) {
    // `required: false` is not listed: profiles check for it (the AUMP binding), and the 1.0
    // signing payload leaves it out as ProtoJSON does (presenceForm, decision 0149).
    card.capabilities.extensions.forEach((ext, index) =>
      check(ext, at('/capabilities/extensions', index), ['description']),
    );
  }
}

function lintRequirementDefaults(
  requirement: unknown,
  path: string,
  check: (obj: unknown, path: string, keys: string[]) => void,
): void {
  if (!isObject(requirement) || !isObject(requirement.schemes)) return;
  for (const [name, scopes] of Object.entries(requirement.schemes))
    check(scopes, at(at(path, 'schemes'), name), ['list']);
}

/**
 * Lints an AgentCard's wire JSON as a card of `version`. Returns the problems found (empty for a
 * clean card); errors make the card invalid, warnings are likely mistakes.
 */
export function lintAgentCard(cardJson: unknown, version: CardVersion): CardProblem[] {
  const out = new ProblemList();
  if (version !== '0.3' && version !== '1.0')
    throw new Error(`lintAgentCard: unknown version ${String(version)}`);
  if (!isObject(cardJson)) {
    out.error('', `an AgentCard must be a JSON object, got ${kindOf(cardJson)}`);
    return out.problems;
  }
  const card = cardJson;
  if (version === '0.3') {
    const protocolVersion = requiredString(card, 'protocolVersion', '', out);
    if (
      protocolVersion !== undefined &&
      protocolVersion !== '' &&
      !/^0\.3(?:\.\d+)?$/.test(protocolVersion)
    ) {
      out.warn('/protocolVersion', `"${protocolVersion}" is not a 0.3 version (expected "0.3.0")`);
    }
  }
  requiredString(card, 'name', '', out);
  requiredString(card, 'description', '', out);
  requiredString(card, 'version', '', out);
  if (version === '0.3') lintLegacyInterfaces(card, out);
  // 0.3 cards may carry the 1.0 list too (hybrid cards, decision 0001); lint it when there.
  lintSupportedInterfaces(card, out, version === '1.0');
  lintCapabilities(card, version, out);
  const need = version === '1.0' ? 'non-empty' : 'should-fill';
  lintModes(readArray(card, 'defaultInputModes', '', out, need), '/defaultInputModes', out);
  lintModes(readArray(card, 'defaultOutputModes', '', out, need), '/defaultOutputModes', out);
  lintSkills(card, version, out);
  lintProvider(card, out);
  optionalUrl(card, 'iconUrl', '', out);
  optionalUrl(card, 'documentationUrl', '', out);
  lintSecurity(card, version, out);
  if (version === '1.0') lintProtoDefaults(card, out);
  return out.problems;
}

export type { CardProblem, CardVersion } from './card-lint-kit.js';

/**
 * The AgentCard as the 0.3 gRPC `GetAgentCard` carries it (0.3 proto `AgentCard`). It is the 0.3
 * card (agent-card.ts) except for security, which the proto spells like the canonical model:
 * schemes as the `SecurityScheme` oneof (`{httpAuthSecurityScheme:{scheme}}` where the JSON card
 * says `{type:"http", scheme}`), requirements as `{schemes:{name:{list}}}` where the JSON card says
 * `{name:[scopes]}`. The proto's `OAuthFlows` is a oneof, so only the first flow survives encoding.
 */
import { pointer, readObject, type JsonObject } from '../decode-kit.js';
import type { AgentCard } from '../agent-card.js';
import { decodeAgentCard, encodeAgentCard } from './agent-card.js';

type Json = JsonObject;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const LEGACY_TO_PROTO: Readonly<Record<string, string>> = {
  apiKey: 'apiKeySecurityScheme',
  http: 'httpAuthSecurityScheme',
  oauth2: 'oauth2SecurityScheme',
  openIdConnect: 'openIdConnectSecurityScheme',
  mutualTLS: 'mtlsSecurityScheme',
};
const PROTO_TO_LEGACY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LEGACY_TO_PROTO).map(([legacy, proto]) => [proto, legacy]),
);

function schemeToProto(scheme: Json): Json {
  const { type, in: location, flows, ...rest } = scheme;
  const inner: Json = { ...rest };
  if (location !== undefined) inner.location = location;
  if (isObject(flows)) {
    const first = Object.keys(flows)[0];
    inner.flows = first === undefined ? {} : { [first]: flows[first] };
  }
  return { [LEGACY_TO_PROTO[String(type)] ?? String(type)]: inner };
}

function schemeToLegacy(value: unknown, path: string): Json {
  const obj = readObject(value, path);
  const key = Object.keys(obj).find((k) => k in PROTO_TO_LEGACY && isObject(obj[k]));
  // An unknown or empty oneof is left for the card decoder to report at this path.
  if (key === undefined) return obj;
  const { location, ...rest } = obj[key] as Json;
  return { type: PROTO_TO_LEGACY[key], ...rest, ...(location === undefined ? {} : { in: location }) };
}

function requirementsToProto(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((req) =>
    isObject(req)
      ? { schemes: Object.fromEntries(Object.entries(req).map(([name, scopes]) => [name, { list: scopes }])) }
      : req,
  );
}

function requirementsToLegacy(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((req) => {
    if (!isObject(req) || !isObject(req.schemes)) return req;
    return Object.fromEntries(
      Object.entries(req.schemes).map(([name, scopes]) => [
        name,
        isObject(scopes) && Array.isArray(scopes.list) ? scopes.list : [],
      ]),
    );
  });
}

function mapSchemes(value: unknown, at: string, map: (scheme: Json, path: string) => Json): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, scheme]) => [
      name,
      isObject(scheme) ? map(scheme, pointer(at, name)) : scheme,
    ]),
  );
}

function mapSkills(value: unknown, convert: (list: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((skill) =>
    isObject(skill) && skill.security !== undefined
      ? // eslint-disable-next-line no-restricted-syntax -- peer JSON: a spread keeps a `__proto__` key plain data
        { ...skill, security: convert(skill.security) }
      : skill,
  );
}

/** The 0.3 proto form of the card (ProtoJSON of `a2a.v1.AgentCard`). */
export function encodeGrpcAgentCard(card: AgentCard): Json {
  const json = encodeAgentCard(card);
  if (json.securitySchemes !== undefined)
    json.securitySchemes = mapSchemes(json.securitySchemes, '', (s) => schemeToProto(s));
  if (json.security !== undefined) json.security = requirementsToProto(json.security);
  json.skills = mapSkills(json.skills, requirementsToProto);
  return json;
}

/** Decodes the 0.3 proto form of a card into the canonical card. */
export function decodeGrpcAgentCard(value: unknown, path: string): AgentCard {
  const obj = { ...readObject(value, path) };
  if (obj.securitySchemes !== undefined)
    obj.securitySchemes = mapSchemes(obj.securitySchemes, pointer(path, 'securitySchemes'), schemeToLegacy);
  if (obj.security !== undefined) obj.security = requirementsToLegacy(obj.security);
  obj.skills = mapSkills(obj.skills, requirementsToLegacy);
  return decodeAgentCard(obj, path);
}

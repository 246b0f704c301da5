/**
 * AgentCard security on the 1.0 wire: `SecurityScheme` and `OAuthFlows` as oneof wrappers, and
 * `SecurityRequirement` in its proto form `{schemes: {name: {list: [...]}}}` (A2A 1.0 §4.5; decision 0008).
 */
import type { OAuthFlows, SecurityRequirement, SecurityScheme } from '../agent-card.js';
import { invalidParams } from '../errors.js';
import {
  isSet,
  optionalBoolean,
  optionalStringArray,
  pointer,
  readObject,
  requiredNonEmptyString,
  tolerate,
  type JsonObject,
} from '../decode-kit.js';
import {
  optionalProtoString,
  readOneofMember,
  readString,
  readStringMap,
  requiredEnumValue,
  requiredValue,
} from './proto-json.js';

type Variant<K extends string> = Extract<SecurityScheme, Record<K, unknown>>[K];
type Flow<K extends keyof OAuthFlows> = NonNullable<OAuthFlows[K]>;

const SCHEME_KINDS = [
  'apiKeySecurityScheme',
  'httpAuthSecurityScheme',
  'oauth2SecurityScheme',
  'openIdConnectSecurityScheme',
  'mtlsSecurityScheme',
] as const;

const FLOW_KINDS = ['authorizationCode', 'clientCredentials', 'deviceCode', 'implicit', 'password'] as const;

const API_KEY_LOCATIONS = Object.freeze({ query: 'query', header: 'header', cookie: 'cookie' } as const);

/** Copies `description` when set: every scheme variant carries it as an implicit-presence string. */
function withDescription<T extends { description?: string }>(target: T, obj: JsonObject, path: string): T {
  const description = optionalProtoString(obj, 'description', path);
  if (description !== undefined) target.description = description;
  return target;
}

/** Sets `refreshUrl`, an implicit-presence string common to every flow, when present. */
function withRefreshUrl<T extends { refreshUrl?: string }>(flow: T, obj: JsonObject, path: string): T {
  const refreshUrl = optionalProtoString(obj, 'refreshUrl', path, obj.refresh_url);
  if (refreshUrl !== undefined) flow.refreshUrl = refreshUrl;
  return flow;
}

function decodeFlow(kind: (typeof FLOW_KINDS)[number], obj: JsonObject, path: string): OAuthFlows {
  const scopes = readStringMap(obj, 'scopes', path);
  switch (kind) {
    case 'authorizationCode': {
      const flow: Flow<'authorizationCode'> = {
        authorizationUrl: requiredNonEmptyString(obj, 'authorizationUrl', path, obj.authorization_url),
        tokenUrl: requiredNonEmptyString(obj, 'tokenUrl', path, obj.token_url),
        scopes,
      };
      const pkceRequired = optionalBoolean(obj, 'pkceRequired', path, obj.pkce_required);
      if (pkceRequired !== undefined) flow.pkceRequired = pkceRequired;
      return { authorizationCode: withRefreshUrl(flow, obj, path) };
    }
    case 'clientCredentials': {
      const flow: Flow<'clientCredentials'> = {
        tokenUrl: requiredNonEmptyString(obj, 'tokenUrl', path, obj.token_url),
        scopes,
      };
      return { clientCredentials: withRefreshUrl(flow, obj, path) };
    }
    case 'deviceCode': {
      const flow: Flow<'deviceCode'> = {
        deviceAuthorizationUrl: requiredNonEmptyString(
          obj,
          'deviceAuthorizationUrl',
          path,
          obj.device_authorization_url,
        ),
        tokenUrl: requiredNonEmptyString(obj, 'tokenUrl', path, obj.token_url),
        scopes,
      };
      return { deviceCode: withRefreshUrl(flow, obj, path) };
    }
    // Deprecated in 1.0 but still in the proto (A2A 1.0 §4.5.7; the proto is normative, §1.4), so still read. The proto leaves
    // their URLs unannotated; the canonical model (and OAuth itself) needs them.
    case 'implicit': {
      const flow: Flow<'implicit'> = {
        authorizationUrl: requiredNonEmptyString(obj, 'authorizationUrl', path, obj.authorization_url),
        scopes,
      };
      return { implicit: withRefreshUrl(flow, obj, path) };
    }
    case 'password': {
      const flow: Flow<'password'> = {
        tokenUrl: requiredNonEmptyString(obj, 'tokenUrl', path, obj.token_url),
        scopes,
      };
      return { password: withRefreshUrl(flow, obj, path) };
    }
  }
}

/**
 * The oneof `field` of `obj` in the form SDK 1.3 serves its card in: `JSON.stringify` of its
 * ts-proto object, `{scheme: {$case: "httpAuthSecurityScheme", value: {...}}}` where ProtoJSON
 * says `{httpAuthSecurityScheme: {...}}` (decision 0143). Read only by a liberal reader (a client
 * reading a card) and only when no ProtoJSON member is set, with a warning; a strict reader
 * refuses it as before. The value is taken from `value`, or from the member `$case` names.
 */
function tsProtoOneof<K extends string>(
  obj: JsonObject,
  field: string,
  keys: readonly K[],
  path: string,
): { key: K; inner: JsonObject; at: string } | undefined {
  const holder = obj[field];
  if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return undefined;
  const kind = (holder as JsonObject).$case;
  if (typeof kind !== 'string' || !(keys as readonly string[]).includes(kind)) return undefined;
  if (keys.some((key) => isSet(obj[key]))) return undefined;
  const at = pointer(path, field);
  if (!tolerate(at, `a ts-proto oneof ({$case: ${JSON.stringify(kind)}}), not ProtoJSON; read as ${kind}`))
    return undefined;
  const valueKey = isSet((holder as JsonObject).value) ? 'value' : kind;
  const valueAt = pointer(at, valueKey);
  return { key: kind as K, inner: readObject((holder as JsonObject)[valueKey], valueAt), at: valueAt };
}

/** Decodes OAuthFlows: a oneof, so exactly one flow (A2A 1.0 §4.5). */
export function decodeOAuthFlows(value: unknown, path: string): OAuthFlows {
  const obj = readObject(value, path);
  const tsProto = tsProtoOneof(obj, 'flow', FLOW_KINDS, path);
  if (tsProto !== undefined) return decodeFlow(tsProto.key, tsProto.inner, tsProto.at);
  const { key: kind, member } = readOneofMember(obj, path, FLOW_KINDS);
  const at = `${path}/${member}`;
  return decodeFlow(kind, readObject(obj[member], at), at);
}

/** Encodes OAuthFlows, writing only the first flow set so the oneof holds. */
export function encodeOAuthFlows(flows: OAuthFlows): JsonObject {
  for (const kind of FLOW_KINDS) {
    const flow = flows[kind];
    if (flow === undefined) continue;
    const out: JsonObject = {};
    if ('authorizationUrl' in flow) out.authorizationUrl = flow.authorizationUrl;
    if ('deviceAuthorizationUrl' in flow) out.deviceAuthorizationUrl = flow.deviceAuthorizationUrl;
    if ('tokenUrl' in flow) out.tokenUrl = flow.tokenUrl;
    if (flow.refreshUrl) out.refreshUrl = flow.refreshUrl;
    out.scopes = flow.scopes;
    if ('pkceRequired' in flow && flow.pkceRequired !== undefined) out.pkceRequired = flow.pkceRequired;
    return { [kind]: out };
  }
  return {};
}

/** Decodes a SecurityScheme: exactly one of the five wrapper members (A2A 1.0 §4.5). */
export function decodeSecurityScheme(value: unknown, path: string): SecurityScheme {
  const obj = readObject(value, path);
  const tsProto = tsProtoOneof(obj, 'scheme', SCHEME_KINDS, path);
  if (tsProto !== undefined) return decodeScheme(tsProto.key, tsProto.inner, tsProto.at);
  const { key: kind, member } = readOneofMember(obj, path, SCHEME_KINDS);
  const at = `${path}/${member}`;
  return decodeScheme(kind, readObject(obj[member], at), at);
}

/** Decodes the `kind` variant of a SecurityScheme from its message `inner` at `at`. */
function decodeScheme(kind: (typeof SCHEME_KINDS)[number], inner: JsonObject, at: string): SecurityScheme {
  switch (kind) {
    case 'apiKeySecurityScheme': {
      const scheme: Variant<'apiKeySecurityScheme'> = {
        // 1.0 renamed OpenAPI's `in` to `location` (A2A 1.0 §4.5).
        location: requiredEnumValue(inner.location, at, 'location', API_KEY_LOCATIONS),
        name: requiredNonEmptyString(inner, 'name', at),
      };
      return { apiKeySecurityScheme: withDescription(scheme, inner, at) };
    }
    case 'httpAuthSecurityScheme': {
      const scheme: Variant<'httpAuthSecurityScheme'> = {
        scheme: requiredNonEmptyString(inner, 'scheme', at),
      };
      const bearerFormat = optionalProtoString(inner, 'bearerFormat', at, inner.bearer_format);
      if (bearerFormat !== undefined) scheme.bearerFormat = bearerFormat;
      return { httpAuthSecurityScheme: withDescription(scheme, inner, at) };
    }
    case 'oauth2SecurityScheme': {
      const scheme: Variant<'oauth2SecurityScheme'> = {
        flows: decodeOAuthFlows(requiredValue(inner.flows, at, 'flows'), `${at}/flows`),
      };
      const metadataUrl = optionalProtoString(inner, 'oauth2MetadataUrl', at, inner.oauth2_metadata_url);
      if (metadataUrl !== undefined) scheme.oauth2MetadataUrl = metadataUrl;
      return { oauth2SecurityScheme: withDescription(scheme, inner, at) };
    }
    case 'openIdConnectSecurityScheme': {
      const scheme: Variant<'openIdConnectSecurityScheme'> = {
        openIdConnectUrl: requiredNonEmptyString(inner, 'openIdConnectUrl', at, inner.open_id_connect_url),
      };
      return { openIdConnectSecurityScheme: withDescription(scheme, inner, at) };
    }
    case 'mtlsSecurityScheme':
      return { mtlsSecurityScheme: withDescription({}, inner, at) };
  }
}

/** Encodes a SecurityScheme as its oneof wrapper with only the known members. */
export function encodeSecurityScheme(scheme: SecurityScheme): JsonObject {
  const out: JsonObject = {};
  if ('apiKeySecurityScheme' in scheme) {
    const inner = scheme.apiKeySecurityScheme;
    if (inner.description) out.description = inner.description;
    out.location = inner.location;
    out.name = inner.name;
    return { apiKeySecurityScheme: out };
  }
  if ('httpAuthSecurityScheme' in scheme) {
    const inner = scheme.httpAuthSecurityScheme;
    if (inner.description) out.description = inner.description;
    out.scheme = inner.scheme;
    if (inner.bearerFormat) out.bearerFormat = inner.bearerFormat;
    return { httpAuthSecurityScheme: out };
  }
  if ('oauth2SecurityScheme' in scheme) {
    const inner = scheme.oauth2SecurityScheme;
    if (inner.description) out.description = inner.description;
    out.flows = encodeOAuthFlows(inner.flows);
    if (inner.oauth2MetadataUrl) out.oauth2MetadataUrl = inner.oauth2MetadataUrl;
    return { oauth2SecurityScheme: out };
  }
  if ('openIdConnectSecurityScheme' in scheme) {
    const inner = scheme.openIdConnectSecurityScheme;
    if (inner.description) out.description = inner.description;
    out.openIdConnectUrl = inner.openIdConnectUrl;
    return { openIdConnectSecurityScheme: out };
  }
  if (scheme.mtlsSecurityScheme.description) out.description = scheme.mtlsSecurityScheme.description;
  return { mtlsSecurityScheme: out };
}

/**
 * Decodes a SecurityRequirement. The proto form `{schemes: {name: {list}}}` is what 1.0 emits; the
 * prose form `{name: [scopes]}` of the spec text and the v1.0.1 sample is also accepted and
 * converted (decision 0008). A member `schemes` holding an object marks the proto form.
 */
export function decodeSecurityRequirement(value: unknown, path: string): SecurityRequirement {
  const obj = readObject(value, path);
  const schemes = obj.schemes;
  const entries: [string, { list: string[] }][] = [];
  if (typeof schemes === 'object' && schemes !== null && !Array.isArray(schemes)) {
    const at = `${path}/schemes`;
    for (const [name, entry] of Object.entries(schemes as JsonObject)) {
      const entryPath = pointer(at, name);
      // ProtoJSON omits an empty `list`, so `{}` means "no scopes".
      const list = optionalStringArray(readObject(entry, entryPath), 'list', entryPath) ?? [];
      entries.push([name, { list }]);
    }
  } else {
    for (const [name, scopes] of Object.entries(obj)) {
      const at = pointer(path, name);
      if (!Array.isArray(scopes)) throw invalidParams(at, 'expected an array of scope names');
      entries.push([name, { list: scopes.map((scope, i) => readString(scope, pointer(at, i))) }]);
    }
  }
  // fromEntries defines own properties, so a scheme named `__proto__` stays a plain key.
  return { schemes: Object.fromEntries(entries) };
}

/** Encodes a SecurityRequirement in the proto form (decision 0008: emit the proto form). */
export function encodeSecurityRequirement(requirement: SecurityRequirement): JsonObject {
  const entries: [string, JsonObject][] = [];
  // ProtoJSON omits an empty repeated field, so "no scopes" is `{}`: the form a verifier that
  // re-serialises the card gets, which keeps card signatures stable (A2A 1.0 §8.4.1).
  for (const [name, scopes] of Object.entries(requirement.schemes))
    entries.push([name, scopes.list.length === 0 ? {} : { list: scopes.list }]);
  return { schemes: Object.fromEntries(entries) };
}

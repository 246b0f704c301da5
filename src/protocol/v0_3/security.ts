/**
 * Card security in its 0.3 form (`types.ts`, OpenAPI 3.0 style; A2A 0.3 §5.5.3): schemes carry a
 * `type` discriminator (`apiKey` uses `in` where 1.0 says `location`) and requirements are
 * `[{scheme: [scopes]}]`, where the canonical (1.0 proto) form is `[{schemes:{scheme:{list}}}]`.
 *
 * 1.0-only details have no 0.3 spelling and are dropped on encode: the `deviceCode` OAuth flow and
 * `pkceRequired`. 0.3 allows several flows in one scheme; all of them are kept on decode.
 */
import { invalidParams } from '../errors.js';
import {
  optionalString,
  pointer,
  readEnum,
  readObject,
  requiredString,
  type JsonObject,
  quote,
} from '../decode-kit.js';
import type { OAuthFlows, OAuthScopes, SecurityRequirement, SecurityScheme } from '../agent-card.js';
import { readString, requiredValue } from './wire-scalars.js';

const API_KEY_LOCATIONS: Readonly<Record<string, 'query' | 'header' | 'cookie'>> = Object.freeze({
  query: 'query',
  header: 'header',
  cookie: 'cookie',
});

function withDescription(out: JsonObject, description: string | undefined): JsonObject {
  if (description !== undefined) out.description = description;
  return out;
}

function flow(urls: JsonObject, refreshUrl: string | undefined, scopes: OAuthScopes): JsonObject {
  if (refreshUrl !== undefined) urls.refreshUrl = refreshUrl;
  urls.scopes = scopes;
  return urls;
}

function encodeFlows(flows: OAuthFlows): JsonObject {
  const out: JsonObject = {};
  const { authorizationCode: code, clientCredentials: client, implicit, password } = flows;
  if (code !== undefined) {
    out.authorizationCode = flow(
      { authorizationUrl: code.authorizationUrl, tokenUrl: code.tokenUrl },
      code.refreshUrl,
      code.scopes,
    );
  }
  if (client !== undefined)
    out.clientCredentials = flow({ tokenUrl: client.tokenUrl }, client.refreshUrl, client.scopes);
  if (implicit !== undefined) {
    out.implicit = flow(
      { authorizationUrl: implicit.authorizationUrl },
      implicit.refreshUrl,
      implicit.scopes,
    );
  }
  if (password !== undefined)
    out.password = flow({ tokenUrl: password.tokenUrl }, password.refreshUrl, password.scopes);
  return out;
}

/** Encodes a canonical (1.0 oneof) security scheme in the 0.3 `type` form. */
export function encodeSecurityScheme(scheme: SecurityScheme): JsonObject {
  if ('apiKeySecurityScheme' in scheme) {
    const s = scheme.apiKeySecurityScheme;
    return withDescription({ type: 'apiKey', in: s.location, name: s.name }, s.description);
  }
  if ('httpAuthSecurityScheme' in scheme) {
    const s = scheme.httpAuthSecurityScheme;
    const out: JsonObject = { type: 'http', scheme: s.scheme };
    if (s.bearerFormat !== undefined) out.bearerFormat = s.bearerFormat;
    return withDescription(out, s.description);
  }
  if ('oauth2SecurityScheme' in scheme) {
    const s = scheme.oauth2SecurityScheme;
    const out: JsonObject = { type: 'oauth2', flows: encodeFlows(s.flows) };
    if (s.oauth2MetadataUrl !== undefined) out.oauth2MetadataUrl = s.oauth2MetadataUrl;
    return withDescription(out, s.description);
  }
  if ('openIdConnectSecurityScheme' in scheme) {
    const s = scheme.openIdConnectSecurityScheme;
    return withDescription({ type: 'openIdConnect', openIdConnectUrl: s.openIdConnectUrl }, s.description);
  }
  return withDescription({ type: 'mutualTLS' }, scheme.mtlsSecurityScheme.description);
}

function readScopes(obj: JsonObject, path: string): OAuthScopes {
  const at = pointer(path, 'scopes');
  const scopes = readObject(requiredValue(obj, 'scopes', path), at);
  for (const name of Object.keys(scopes)) readString(scopes[name], pointer(at, name));
  return scopes as OAuthScopes;
}

function readFlow<T extends object>(
  flows: JsonObject,
  key: string,
  path: string,
  urls: readonly string[],
): T | undefined {
  if (flows[key] === undefined || flows[key] === null) return undefined;
  const at = pointer(path, key);
  const obj = readObject(flows[key], at);
  const out: JsonObject = {};
  for (const url of urls) out[url] = requiredString(obj, url, at);
  const refreshUrl = optionalString(obj, 'refreshUrl', at);
  if (refreshUrl !== undefined) out.refreshUrl = refreshUrl;
  out.scopes = readScopes(obj, at);
  return out as T;
}

function decodeFlows(value: unknown, path: string): OAuthFlows {
  const obj = readObject(value, path);
  const flows: OAuthFlows = {};
  const code = readFlow<NonNullable<OAuthFlows['authorizationCode']>>(obj, 'authorizationCode', path, [
    'authorizationUrl',
    'tokenUrl',
  ]);
  if (code !== undefined) flows.authorizationCode = code;
  const client = readFlow<NonNullable<OAuthFlows['clientCredentials']>>(obj, 'clientCredentials', path, [
    'tokenUrl',
  ]);
  if (client !== undefined) flows.clientCredentials = client;
  const implicit = readFlow<NonNullable<OAuthFlows['implicit']>>(obj, 'implicit', path, ['authorizationUrl']);
  if (implicit !== undefined) flows.implicit = implicit;
  const password = readFlow<NonNullable<OAuthFlows['password']>>(obj, 'password', path, ['tokenUrl']);
  if (password !== undefined) flows.password = password;
  return flows;
}

/** Decodes a 0.3 security scheme (`type` discriminator) into the canonical oneof form. */
export function decodeSecurityScheme(value: unknown, path: string): SecurityScheme {
  const obj = readObject(value, path);
  const type = requiredString(obj, 'type', path);
  const description = optionalString(obj, 'description', path);
  const base = description === undefined ? {} : { description };
  switch (type) {
    case 'apiKey': {
      const location = readEnum(requiredValue(obj, 'in', path), pointer(path, 'in'), API_KEY_LOCATIONS);
      return {
        apiKeySecurityScheme: Object.assign({}, base, { location, name: requiredString(obj, 'name', path) }),
      };
    }
    case 'http': {
      const s = Object.assign({}, base, { scheme: requiredString(obj, 'scheme', path) });
      const bearerFormat = optionalString(obj, 'bearerFormat', path);
      return {
        httpAuthSecurityScheme: bearerFormat === undefined ? s : Object.assign({}, s, { bearerFormat }),
      };
    }
    case 'oauth2': {
      const s = Object.assign({}, base, {
        flows: decodeFlows(requiredValue(obj, 'flows', path), pointer(path, 'flows')),
      });
      const metadataUrl = optionalString(obj, 'oauth2MetadataUrl', path);
      return {
        oauth2SecurityScheme:
          metadataUrl === undefined ? s : Object.assign({}, s, { oauth2MetadataUrl: metadataUrl }),
      };
    }
    case 'openIdConnect':
      return {
        openIdConnectSecurityScheme: Object.assign({}, base, {
          openIdConnectUrl: requiredString(obj, 'openIdConnectUrl', path),
        }),
      };
    case 'mutualTLS':
      return { mtlsSecurityScheme: base };
    default:
      throw invalidParams(
        pointer(path, 'type'),
        `unknown security scheme type ${quote(type)}; expected apiKey, http, oauth2, openIdConnect or mutualTLS`,
      );
  }
}

/** Encodes canonical security requirements as the 0.3 `[{scheme: [scopes]}]` list. */
export function encodeSecurityRequirements(requirements: readonly SecurityRequirement[]): JsonObject[] {
  const out = new Array<JsonObject>(requirements.length);
  for (let i = 0; i < out.length; i++) {
    // fromEntries defines own properties, so a scheme named `__proto__` stays data.
    const schemes = (requirements[i] as SecurityRequirement).schemes;
    out[i] = Object.fromEntries(
      Object.keys(schemes).map((name) => [name, (schemes[name] as { list: string[] }).list]),
    );
  }
  return out;
}

/** Decodes one 0.3 security requirement object `{scheme: [scopes]}`. */
export function decodeSecurityRequirement(value: unknown, path: string): SecurityRequirement {
  const obj = readObject(value, path);
  const entries = Object.keys(obj).map((name): [string, { list: string[] }] => {
    const at = pointer(path, name);
    const scopes = obj[name];
    if (!Array.isArray(scopes)) throw invalidParams(at, 'expected an array of scopes');
    for (let i = 0; i < scopes.length; i++) readString(scopes[i], pointer(at, i));
    return [name, { list: scopes as string[] }];
  });
  return { schemes: Object.fromEntries(entries) };
}

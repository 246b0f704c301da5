/**
 * Lint rules for a card's security and signatures: scheme shapes per version (A2A 1.0 §4.5; A2A 0.3 §5.5.3),
 * requirements that name undeclared schemes (card and skills), and signature headers (A2A 1.0
 * §8.4: protected header with alg and kid, typ "JOSE"; no `none`, no HMAC).
 */
import { base64url } from 'jose';
import {
  at,
  checkUrl,
  isObject,
  kindOf,
  optionalUrl,
  readArray,
  requiredString,
  type CardVersion,
  type Json,
  type ProblemList,
} from './card-lint-kit.js';
import { forbiddenAlgorithmReason } from './signing-algorithms.js';

const V03_TYPES = ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'];
const V10_KINDS = [
  'apiKeySecurityScheme',
  'httpAuthSecurityScheme',
  'oauth2SecurityScheme',
  'openIdConnectSecurityScheme',
  'mtlsSecurityScheme',
];
const LOCATIONS = ['query', 'header', 'cookie'];

function lintScheme03(scheme: Json, path: string, out: ProblemList): void {
  const type = requiredString(scheme, 'type', path, out);
  if (type === undefined || type === '') return;
  if (!V03_TYPES.includes(type)) {
    out.error(at(path, 'type'), `"${type}" is not a 0.3 scheme type (${V03_TYPES.join(', ')})`);
  } else if (type === 'apiKey') {
    const where = requiredString(scheme, 'in', path, out);
    if (where !== undefined && !LOCATIONS.includes(where))
      out.error(at(path, 'in'), `must be ${LOCATIONS.join(', ')}`);
    requiredString(scheme, 'name', path, out);
  } else if (type === 'http') requiredString(scheme, 'scheme', path, out);
  else if (type === 'oauth2' && !isObject(scheme.flows)) out.error(at(path, 'flows'), 'flows is required');
  else if (type === 'openIdConnect') {
    const url = requiredString(scheme, 'openIdConnectUrl', path, out);
    if (url !== undefined && url !== '') checkUrl(url, at(path, 'openIdConnectUrl'), out);
  }
}

function lintScheme10(scheme: Json, path: string, out: ProblemList): void {
  const kinds = Object.keys(scheme);
  // A oneof wrapper holds exactly one variant (A2A 1.0 §4.5.1).
  if (kinds.length !== 1 || !V10_KINDS.includes(kinds[0] as string)) {
    out.error(
      path,
      `must hold exactly one of ${V10_KINDS.join(', ')}; found ${kinds.join(', ') || 'nothing'}`,
    );
    return;
  }
  const kind = kinds[0] as string;
  const inner = scheme[kind];
  const where = at(path, kind);
  if (!isObject(inner)) {
    out.error(where, `must be an object, got ${kindOf(inner)}`);
    return;
  }
  if (kind === 'apiKeySecurityScheme') {
    if (inner.in !== undefined && inner.location === undefined) {
      out.error(at(where, 'in'), '1.0 names this member "location" (A2A 1.0 §4.5.2)');
    }
    const location = requiredString(inner, 'location', where, out);
    if (location !== undefined && !LOCATIONS.includes(location)) {
      out.error(at(where, 'location'), `must be ${LOCATIONS.join(', ')}`);
    }
    requiredString(inner, 'name', where, out);
  } else if (kind === 'httpAuthSecurityScheme') requiredString(inner, 'scheme', where, out);
  else if (kind === 'oauth2SecurityScheme') {
    const flows = inner.flows;
    // 1.0 OAuthFlows is a oneof: exactly one flow.
    if (!isObject(flows)) out.error(at(where, 'flows'), 'flows is required');
    else if (Object.keys(flows).length !== 1)
      out.error(at(where, 'flows'), 'must hold exactly one flow in 1.0');
    optionalUrl(inner, 'oauth2MetadataUrl', where, out);
  } else if (kind === 'openIdConnectSecurityScheme') {
    const url = requiredString(inner, 'openIdConnectUrl', where, out);
    if (url !== undefined && url !== '') checkUrl(url, at(where, 'openIdConnectUrl'), out);
  }
}

/** Scheme names one requirement uses: 0.3 `{name: [scopes]}`, 1.0 `{schemes: {name: {list}}}`. */
function schemeNames(
  entry: unknown,
  path: string,
  version: CardVersion,
  out: ProblemList,
): [string, string][] {
  if (!isObject(entry)) {
    out.error(path, `a security requirement must be an object, got ${kindOf(entry)}`);
    return [];
  }
  // 1.0 readers accept both forms (decision 0008); 0.3 has only the map form.
  const proto = version === '1.0' && isObject(entry.schemes);
  const map = proto ? (entry.schemes as Json) : entry;
  const base = proto ? at(path, 'schemes') : path;
  return Object.keys(map).map((name) => {
    const scopes = proto ? (map[name] as Json | undefined)?.list : map[name];
    const valid = proto
      ? isObject(map[name]) && (scopes === undefined || Array.isArray(scopes))
      : Array.isArray(scopes);
    if (!valid) out.error(at(base, name), proto ? 'must be {"list": [scopes]}' : 'must be a list of scopes');
    return [name, at(base, name)];
  });
}

function lintRequirements(
  owner: Json,
  path: string,
  version: CardVersion,
  declared: Json,
  out: ProblemList,
): void {
  let key = version === '1.0' ? 'securityRequirements' : 'security';
  if (version === '1.0' && owner.securityRequirements === undefined && owner.security !== undefined) {
    out.warn(at(path, 'security'), '1.0 names this member "securityRequirements" (decision 0008)');
    key = 'security';
  }
  const list = readArray(owner, key, path, out, 'optional');
  list?.forEach((entry, index) => {
    for (const [name, where] of schemeNames(entry, at(at(path, key), index), version, out)) {
      if (!Object.prototype.hasOwnProperty.call(declared, name)) {
        out.error(where, `names scheme "${name}", which securitySchemes does not declare`);
      }
    }
  });
}

function lintSignature(entry: unknown, path: string, out: ProblemList): void {
  if (!isObject(entry)) {
    out.error(path, `a signature must be an object, got ${kindOf(entry)}`);
    return;
  }
  requiredString(entry, 'signature', path, out);
  const encoded = requiredString(entry, 'protected', path, out);
  if (encoded === undefined || encoded === '') return;
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(encoded)));
  } catch {
    header = undefined;
  }
  const where = at(path, 'protected');
  if (!isObject(header)) {
    out.error(where, 'is not a base64url-encoded JSON object');
    return;
  }
  for (const name of ['alg', 'kid']) {
    if (typeof header[name] !== 'string')
      out.error(where, `the protected header lacks "${name}" (A2A 1.0 §8.4)`);
  }
  const forbidden = typeof header.alg === 'string' ? forbiddenAlgorithmReason(header.alg) : undefined;
  if (forbidden !== undefined) out.error(where, forbidden);
  if (header.typ !== 'JOSE') out.warn(where, 'the protected header SHOULD have typ "JOSE" (A2A 1.0 §8.4)');
  if (typeof header.jku === 'string') checkUrl(header.jku, where, out);
}

/** Lints securitySchemes, the card's and each skill's requirements, and signatures. */
export function lintSecurity(card: Json, version: CardVersion, out: ProblemList): void {
  let declared: Json = {};
  const schemes = card.securitySchemes;
  if (isObject(schemes)) {
    declared = schemes;
    for (const [name, scheme] of Object.entries(schemes)) {
      const path = at('/securitySchemes', name);
      if (!isObject(scheme)) out.error(path, `a security scheme must be an object, got ${kindOf(scheme)}`);
      else if (version === '0.3') lintScheme03(scheme, path, out);
      else lintScheme10(scheme, path, out);
    }
  } else if (schemes !== undefined) {
    out.error('/securitySchemes', `must be an object, got ${kindOf(schemes)}`);
  }
  lintRequirements(card, '', version, declared, out);
  if (Array.isArray(card.skills)) {
    card.skills.forEach((skill, index) => {
      if (isObject(skill)) lintRequirements(skill, at('/skills', index), version, declared, out);
    });
  }
  readArray(card, 'signatures', '', out, 'optional')?.forEach((entry, index) =>
    lintSignature(entry, at('/signatures', index), out),
  );
}

/**
 * Lint rules for where a card says the agent is reachable: the 1.0 `supportedInterfaces` list, and
 * the 0.3 `url` + `preferredTransport` + `additionalInterfaces` (A2A 1.0 §4.4.6, §8.3; A2A 0.3 §5.6).
 */
import {
  at,
  checkUrl,
  isObject,
  kindOf,
  optionalString,
  readArray,
  requiredString,
  type Json,
  type ProblemList,
} from './card-lint-kit.js';

/** The bindings A2A defines (A2A 1.0 §5.3, §5.8); anything else must be a URI naming a custom one. */
const KNOWN_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

// A URI in the RFC 3986 sense: a scheme, a colon, something after it.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

// gRPC endpoints may be written host:port (the `AgentInterface.url` comment of the A2A proto on main after 1.0.1).
const HOST_PORT = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;

function checkBinding(binding: string, path: string, out: ProblemList): void {
  if (KNOWN_BINDINGS.includes(binding)) return;
  const known = KNOWN_BINDINGS.find((name) => name.toLowerCase() === binding.toLowerCase());
  if (known !== undefined) out.error(path, `"${binding}" must be spelled "${known}"`);
  else if (!URI.test(binding)) {
    out.error(
      path,
      `"${binding}" is not a known binding (${KNOWN_BINDINGS.join(', ')}) nor a URI for a custom one`,
    );
  }
}

function checkEndpoint(url: string, binding: string | undefined, path: string, out: ProblemList): void {
  if (binding === 'GRPC' && HOST_PORT.test(url)) return;
  checkUrl(url, path, out);
}

/** Warns about entries whose key (undefined: unreadable, skipped) repeats an earlier entry's. */
function warnDuplicates(keys: (string | undefined)[], path: string, what: string, out: ProblemList): void {
  const first = new Map<string, number>();
  keys.forEach((key, index) => {
    if (key === undefined) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else out.warn(at(path, index), `duplicates ${what} ${earlier}`);
  });
}

/**
 * Lints `supportedInterfaces` (A2A 1.0 AgentInterface: url, protocolBinding, protocolVersion
 * REQUIRED, tenant optional). `required`: a 1.0 card must list at least one (A2A 1.0 §5.7).
 */
export function lintSupportedInterfaces(card: Json, out: ProblemList, required: boolean): void {
  const list = readArray(card, 'supportedInterfaces', '', out, required ? 'non-empty' : 'optional');
  if (list === undefined) return;
  const keys = list.map((entry, index) => {
    const path = at('/supportedInterfaces', index);
    if (!isObject(entry)) {
      out.error(path, `an interface must be an object, got ${kindOf(entry)}`);
      return undefined;
    }
    const binding = requiredString(entry, 'protocolBinding', path, out);
    if (binding !== undefined && binding !== '') checkBinding(binding, at(path, 'protocolBinding'), out);
    const url = requiredString(entry, 'url', path, out);
    if (url !== undefined && url !== '') checkEndpoint(url, binding, at(path, 'url'), out);
    const version = requiredString(entry, 'protocolVersion', path, out);
    // A2A 1.0 §3.6: versions are Major.Minor; a patch SHOULD NOT appear.
    if (version !== undefined && version !== '' && !/^\d+\.\d+$/.test(version)) {
      const hint = /^\d+\.\d+\.\d+$/.test(version) ? ' (drop the patch number)' : '';
      out.warn(at(path, 'protocolVersion'), `"${version}" is not of the form Major.Minor${hint}`);
    }
    const tenant = optionalString(entry, 'tenant', path, out);
    return JSON.stringify([url, binding, version, tenant ?? '']);
  });
  warnDuplicates(keys, '/supportedInterfaces', 'interface', out);
}

/**
 * Lints the 0.3 endpoint fields: `url` and `preferredTransport` are REQUIRED (A2A 0.3
 * §5.6.1: always emitted), and `additionalInterfaces` SHOULD include the main pair (0.3 `types.ts`).
 */
export function lintLegacyInterfaces(card: Json, out: ProblemList): void {
  const url = requiredString(card, 'url', '', out);
  if (url !== undefined && url !== '') checkUrl(url, '/url', out);
  const preferred = requiredString(card, 'preferredTransport', '', out);
  if (preferred !== undefined && preferred !== '') checkBinding(preferred, '/preferredTransport', out);
  const list = readArray(card, 'additionalInterfaces', '', out, 'optional');
  if (list === undefined) return;
  const pairs = list.map((entry, index) => {
    const path = at('/additionalInterfaces', index);
    if (!isObject(entry)) {
      out.error(path, `an interface must be an object, got ${kindOf(entry)}`);
      return undefined;
    }
    const transport = requiredString(entry, 'transport', path, out);
    if (transport !== undefined && transport !== '') checkBinding(transport, at(path, 'transport'), out);
    const entryUrl = requiredString(entry, 'url', path, out);
    if (entryUrl !== undefined && entryUrl !== '') checkEndpoint(entryUrl, transport, at(path, 'url'), out);
    return JSON.stringify([entryUrl, transport]);
  });
  warnDuplicates(pairs, '/additionalInterfaces', 'interface', out);
  if (url !== undefined && preferred !== undefined && !pairs.includes(JSON.stringify([url, preferred]))) {
    out.warn(
      '/additionalInterfaces',
      `does not list the main interface (${preferred} at ${url}); 0.3 clients choosing from this list will miss it`,
    );
  }
}

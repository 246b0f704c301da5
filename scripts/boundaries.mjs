/**
 * The import boundaries of docs/architecture.md, written once. test/architecture.test.ts reads every
 * module specifier of every file under src/ (with the TypeScript compiler) and checks it here;
 * eslint.config.js runs the same check as the `concord/boundaries` rule, so an editor shows a
 * violation where it is written. Paths are relative to src/ with forward slashes; a place in these
 * tables is a path prefix: 'server/grpc/' is a folder, 'client/transports/grpc-' the client's gRPC files.
 */
import { builtinModules } from 'node:module';
import { posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which layers each layer may import besides itself (DESIGN.md "Dependencies point inward"). */
export const LAYERS = {
  protocol: [],
  // The outbound-address guard, shared by client and server (decision 0086).
  net: [],
  // Optional peer packages (decision 0153): the table of features and the missing-package error.
  peers: [],
  // Spans, metrics and trace context through the OpenTelemetry API (decision 0157).
  telemetry: ['protocol'],
  contracts: ['protocol'],
  store: ['protocol', 'peers'],
  card: ['protocol', 'contracts', 'store'],
  server: ['protocol', 'contracts', 'store', 'card', 'net', 'peers', 'telemetry'],
  client: ['protocol', 'contracts', 'card', 'net', 'peers', 'telemetry'],
  host: ['protocol', 'contracts', 'store', 'card', 'server', 'client', 'cluster', 'peers', 'telemetry'],
  extensions: ['protocol', 'contracts', 'store', 'card', 'server', 'client', 'telemetry'],
  check: ['protocol', 'card', 'client'],
  // Cluster buses (decisions 0115-0116): the ClusterBus port is the server's; they implement it.
  // The PostgreSQL bus shares the store's schema, so it checks schema names by the store's rule.
  cluster: ['server', 'store'],
  cli: [
    'protocol',
    'contracts',
    'store',
    'card',
    'server',
    'client',
    'host',
    'extensions',
    'check',
    'cluster',
    'peers',
    'telemetry',
  ],
  index: ['protocol', 'server'],
};

/** Layers that reach other layers through their entries only (a public or an internal entry). */
export const PUBLIC_ONLY = ['host', 'extensions', 'check', 'cli', 'cluster'];

/**
 * Public entries: the files behind package.json's exports (and each extension's index.ts), and
 * the entries of the internal peers and telemetry layers (peers/index.ts, telemetry/index.ts).
 */
export const PUBLIC_ENTRY =
  /^(peers|telemetry|protocol|contracts|store|card|server|client|host|extensions|check)\/index\.ts$|^extensions\/[a-z0-9-]+\/index\.ts$|^server\/adapters\/(node|fetch|express)\.ts$|^server\/grpc\/index\.ts$|^store\/(sqlite|postgres)\/index\.ts$|^cluster\/(postgres|redis)\/index\.ts$/;

/**
 * Internal entries (decision 0155): a layer's public entry plus what the CLI, other layers and the
 * tests need but a user does not. package.json does not export them, so the public surface stays
 * small (test/package/public-surface.test.ts keeps its budget).
 */
export const INTERNAL_ENTRY =
  /^(protocol|contracts|store|card|server|client|host)\/internal\.ts$|^store\/(sqlite|postgres)\/internal\.ts$|^extensions\/[a-z0-9-]+\/internal\.ts$/;

/**
 * The entries-only layers that may use internal entries. Extensions may not: an extension is
 * written the way a user writes one, against the public entries (decision 0155).
 */
export const INTERNAL_USERS = ['host', 'check', 'cli', 'cluster'];

/**
 * Every third-party package src/ may import, and where. A package not listed is imported nowhere;
 * the list is package.json's "dependencies" and "peerDependencies" (the test checks both ways;
 * every peer is optional and loaded on first use, decision 0153). `typesIn`: places that may
 * import the package's types only (`import type`), which vanish from the compiled JavaScript.
 */
export const PACKAGES = {
  'better-sqlite3': { in: ['store/sqlite/'] },
  pg: { in: ['store/postgres/', 'cluster/postgres/'] },
  '@redis/client': { in: ['cluster/redis/'] },
  // gRPC is loaded on first use by the client (decision 0071) and served by `listenGrpc` (0070).
  '@grpc/grpc-js': { in: ['server/grpc/', 'client/transports/grpc-'] },
  '@grpc/proto-loader': { in: ['server/grpc/'] },
  '@grpc/reflection': { in: ['server/grpc/'] },
  'grpc-health-check': { in: ['server/grpc/'] },
  // protocol/grpc/ converts messages protobufjs decoded, so it names protobufjs' types; the
  // loading of descriptors (I/O) is the server's and the client's.
  protobufjs: { in: ['server/grpc/', 'client/transports/grpc-'], typesIn: ['protocol/grpc/'] },
  '@modelcontextprotocol/sdk': { in: ['host/executors/mcp-'] },
  ajv: { in: ['contracts/', 'host/definitions/', 'extensions/'] },
  'ajv-formats': { in: ['contracts/', 'host/definitions/', 'extensions/'] },
  'json-schema-to-ts': { in: [], typesIn: ['contracts/'] },
  // Validators users declare contracts with (decision 0165): optional peers for their version
  // ranges, read only through the Standard Schema interfaces contracts/ defines itself.
  zod: { in: [] },
  valibot: { in: [] },
  '@valibot/to-json-schema': { in: [] },
  canonicalize: { in: ['card/'] },
  jose: { in: ['card/', 'server/push/', 'host/'] },
  json5: { in: ['host/definitions/'] },
  yaml: { in: ['host/definitions/'] },
  // The API is the one telemetry package the library needs (decision 0157); the SDK, exporters and
  // the logger are optional peers that `concord serve` loads when asked for (decisions 0157-0158).
  '@opentelemetry/api': { in: ['telemetry/'] },
  '@opentelemetry/sdk-trace': { in: ['cli/serve/'] },
  '@opentelemetry/sdk-metrics': { in: ['cli/serve/'] },
  '@opentelemetry/core': { in: ['cli/serve/'] },
  '@opentelemetry/resources': { in: ['cli/serve/'] },
  '@opentelemetry/context-async-hooks': { in: ['cli/serve/'] },
  '@opentelemetry/exporter-trace-otlp-http': { in: ['cli/serve/'] },
  '@opentelemetry/exporter-metrics-otlp-http': { in: ['cli/serve/'] },
  '@opentelemetry/exporter-prometheus': { in: ['cli/serve/'] },
  pino: { in: ['cli/'] },
};

/**
 * Layers limited in Node built-ins: each may import only the built-ins listed, in the files listed.
 * protocol/ and contracts/ are pure (DESIGN.md): they run wherever JavaScript does. The one
 * exception computes where the vendored protos are from import.meta.url; it reads nothing.
 */
export const NODE_BUILTINS = {
  protocol: { 'node:url': ['protocol/grpc/proto-files.ts'] },
  contracts: {},
};

/** The files that may import a module whose name is computed at run time, and why. */
export const COMPUTED_IMPORTS = {
  'cli/serve/load-agent.ts': 'the agent module named on the command line (`concord serve <file>`)',
  'host/executors/handler-executor.ts':
    "a definition's handler module, re-imported under a versioned URL on reload (decision 0022)",
};

/** The package's own names (the package is being renamed): src/ imports itself relatively only. */
export const SELF_NAMES = ['concord', 'concord-a2a'];

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names: `@scope/name` or `name`. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The top folder (layer) of a path relative to src/: `server/grpc/x.ts` -> `server`. */
export function layerOf(path) {
  return path.split('/')[0].replace(/\.ts$/, '');
}

/** The src/-relative .ts file a relative specifier in `from` names. */
export function resolveRelative(from, specifier) {
  return posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
}

const within = (path, places) => places.some((place) => path.startsWith(place));

function checkRelative(from, specifier) {
  const target = resolveRelative(from, specifier);
  if (target.startsWith('../')) return `${specifier} reaches outside src/`;
  const [fromLayer, toLayer] = [layerOf(from), layerOf(target)];
  if (fromLayer === 'extensions' && toLayer === 'extensions') {
    // One extension uses another the way any user does: through its public entry.
    const [own, other] = [from.split('/')[1], target.split('/')[1]];
    if (own !== other && target !== `extensions/${other}/index.ts`) {
      return `${specifier}: extensions/${own}/ reaches into extensions/${other}/ (use its index.ts)`;
    }
    return undefined;
  }
  if (fromLayer === toLayer) return undefined;
  if (!(LAYERS[fromLayer] ?? []).includes(toLayer))
    return `${specifier}: ${fromLayer} may not import ${toLayer}`;
  if (PUBLIC_ONLY.includes(fromLayer) && !PUBLIC_ENTRY.test(target)) {
    if (INTERNAL_USERS.includes(fromLayer) && INTERNAL_ENTRY.test(target)) return undefined;
    const entries = INTERNAL_USERS.includes(fromLayer) ? 'public or internal entries' : 'public entries';
    return `${specifier}: ${target} is not ${INTERNAL_USERS.includes(fromLayer) ? 'an entry' : 'a public entry'} (${fromLayer} uses ${entries} only)`;
  }
  return undefined;
}

function checkBuiltin(from, specifier) {
  if (!specifier.startsWith('node:')) return `${specifier}: name Node built-ins with the node: prefix`;
  const limits = NODE_BUILTINS[layerOf(from)];
  if (limits === undefined) return undefined;
  const name = specifier.split('/')[0];
  if (within(from, limits[name] ?? [])) return undefined;
  const allowed = Object.entries(limits).map(([mod, files]) => `${mod} in ${files.join(', ')}`);
  return `${specifier}: ${layerOf(from)}/ is pure and imports ${allowed.length ? `only ${allowed.join('; ')}` : 'no Node built-in'}`;
}

function checkPackage(from, specifier, typeOnly) {
  const name = packageOf(specifier);
  if (SELF_NAMES.includes(name))
    return `${specifier}: the package imports itself relatively, never by its name`;
  const rule = PACKAGES[name];
  if (rule === undefined) return `${specifier}: ${name} is not in the package table (scripts/boundaries.mjs)`;
  if (within(from, rule.in)) return undefined;
  if (typeOnly && within(from, rule.typesIn ?? [])) return undefined;
  const places = [...rule.in, ...(rule.typesIn ?? []).map((p) => `${p} (types only)`)];
  return `${specifier}: ${name} belongs to ${places.join(', ') || 'no place'}`;
}

/**
 * What is wrong with one import of `from` (a path relative to src/), or undefined. `specifier` is
 * undefined for an import whose module name is computed; `typeOnly` marks `import type` and the like.
 */
export function checkImport(from, { specifier, typeOnly = false }) {
  if (specifier === undefined) {
    return COMPUTED_IMPORTS[from] === undefined
      ? 'an import of a computed module name (allow it in COMPUTED_IMPORTS with a reason)'
      : undefined;
  }
  if (specifier.startsWith('.')) return checkRelative(from, specifier);
  if (specifier.startsWith('node:') || BUILTINS.has(packageOf(specifier)))
    return checkBuiltin(from, specifier);
  return checkPackage(from, specifier, typeOnly);
}

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The literal module name of an ESTree node, or undefined when it is computed. */
function literalOf(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** Whether a call is `require(x)`, `require.resolve(x)` or `createRequire(...).resolve(x)`. */
function isRequire(callee) {
  if (callee.type === 'Identifier') return callee.name === 'require';
  if (callee.type !== 'MemberExpression' || callee.property.name !== 'resolve') return false;
  const base = callee.object;
  return (
    (base.type === 'Identifier' && base.name === 'require') ||
    (base.type === 'CallExpression' &&
      base.callee.type === 'Identifier' &&
      base.callee.name === 'createRequire')
  );
}

/** The ESLint rule: every module specifier of a file under src/, checked by checkImport. */
export const boundariesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports stay within the boundaries of docs/architecture.md' },
    schema: [],
  },
  create(context) {
    const from = relative(SRC, context.filename).split(sep).join('/');
    if (from.startsWith('..')) return {};
    const check = (node, specifier, typeOnly) => {
      const problem = checkImport(from, { specifier, typeOnly });
      if (problem !== undefined) context.report({ node, message: problem });
    };
    const fromSource = (node) => {
      if (node.source) check(node.source, node.source.value, (node.importKind ?? node.exportKind) === 'type');
    };
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => check(node, literalOf(node.source), false),
      TSImportType: (node) => check(node, literalOf(node.argument.literal ?? node.argument), true),
      CallExpression: (node) => {
        if (isRequire(node.callee) && node.arguments.length > 0)
          check(node, literalOf(node.arguments[0]), false);
      },
    };
  },
};

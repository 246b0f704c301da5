/**
 * The executor of a code agent: the module its definition's `handler` names. Three export shapes
 * are accepted, the same ones the echo example uses and the obvious shorthand for small agents:
 * a named `executor` object, a default-exported executor object, or a default-exported function
 * `(context, updater) => ...`.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentDefinition } from '../../card/index.js';
import type { AgentExecutor } from '../../server/index.js';

/** A handler module could not be turned into an executor; `file` is the module's path. */
export class HandlerLoadError extends Error {
  override readonly name = 'HandlerLoadError';

  constructor(
    /** The handler module (absolute path). */
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const JAVASCRIPT = new Set(['.js', '.mjs', '.cjs']);
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

const SHAPES =
  'export `executor` (an object with execute(context, updater)), or export default such an object ' +
  'or a function (context, updater) => ...';

/** True when this Node can import TypeScript itself (type stripping: 22.6+ flagged, 23.6+/22.18+ default). */
function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: unknown };
  return features.typescript !== undefined && features.typescript !== false;
}

function declaredAt(definition: AgentDefinition): string {
  const { file, line } = definition.source;
  return line === undefined ? file : `${file}:${line}`;
}

function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

function asExecutor(value: unknown, file: string, what: string): AgentExecutor {
  const candidate = value as Partial<AgentExecutor>;
  if (typeof candidate.execute !== 'function') {
    throw new HandlerLoadError(file, `Handler ${file}: ${what} has no execute(context, updater) method`);
  }
  if (candidate.cancel !== undefined && typeof candidate.cancel !== 'function') {
    throw new HandlerLoadError(file, `Handler ${file}: ${what} has a \`cancel\` that is not a function`);
  }
  return candidate as AgentExecutor;
}

/** Picks the executor out of a loaded module, trying the three shapes in order. */
function executorOf(module: Record<string, unknown>, file: string): AgentExecutor {
  if (module.executor !== undefined) {
    if (typeof module.executor !== 'object' || module.executor === null) {
      throw new HandlerLoadError(file, `Handler ${file}: export \`executor\` must be an object; ${SHAPES}`);
    }
    return asExecutor(module.executor, file, 'export `executor`');
  }
  const fallback = module.default;
  if (typeof fallback === 'function') {
    if (isClass(fallback)) {
      throw new HandlerLoadError(
        file,
        `Handler ${file}: the default export is a class; export an instance of it instead (${SHAPES})`,
      );
    }
    const handle = fallback as AgentExecutor['execute'];
    return { execute: (context, updater) => handle(context, updater) };
  }
  if (typeof fallback === 'object' && fallback !== null) {
    return asExecutor(fallback, file, 'the default export');
  }
  throw new HandlerLoadError(file, `Handler ${file} exports no executor: ${SHAPES}`);
}

/** The URL each handler module was last imported under, and the content it had then. */
const imported = new Map<string, { version: string; url: string }>();

/** A short hash of the module file's content: the same content is the same version. */
export async function handlerVersion(file: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex')
      .slice(0, 16);
  } catch {
    return '';
  }
}

/**
 * Imports a handler module, fresh when its content changed since the last import. Node caches an
 * ES module by URL for the life of the process and offers no way to evict it, so a changed file is
 * imported under a new URL (`?v=<content hash>`); an unchanged one gets the cached module, so
 * reloads that do not touch it cost nothing and leak nothing. CommonJS modules are cached by path
 * in `require.cache`, which is cleared for the file first. Only the handler module itself is
 * re-imported: modules it imports keep their first version (decision 0022).
 */
async function importHandler(file: string): Promise<Record<string, unknown>> {
  const version = await handlerVersion(file);
  const seen = imported.get(file);
  let url = seen?.url ?? pathToFileURL(file).href;
  if (seen !== undefined && seen.version !== version) {
    url = `${pathToFileURL(file).href}?v=${version}`;
    delete createRequire(import.meta.url).cache[file];
  }
  // Recorded before the import: a module that failed to load stays failed under its URL.
  imported.set(file, { version, url });
  return (await import(url)) as Record<string, unknown>;
}

/** Imports the definition's handler module and returns its executor; errors name the file. */
export async function loadHandlerExecutor(definition: AgentDefinition): Promise<AgentExecutor> {
  const file = definition.handler;
  if (file === undefined || file === '') {
    throw new Error(`Agent "${definition.id}" (${declaredAt(definition)}) has no \`handler\` module`);
  }
  const ext = extname(file).toLowerCase();
  if (TYPESCRIPT.has(ext)) {
    if (!nodeStripsTypes()) {
      throw new HandlerLoadError(
        file,
        `Handler ${file} (agent "${definition.id}", ${declaredAt(definition)}) is TypeScript, which ` +
          `Node ${process.versions.node} cannot import: compile it to .js (e.g. with tsc) and point ` +
          '`handler` at the output, or run Node >= 22.6 with --experimental-strip-types',
      );
    }
  } else if (!JAVASCRIPT.has(ext)) {
    throw new HandlerLoadError(
      file,
      `Handler ${file} (agent "${definition.id}", ${declaredAt(definition)}) must be a .js, .mjs or .cjs module` +
        ' (or .ts on a Node that strips types)',
    );
  }
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    throw new HandlerLoadError(
      file,
      `Handler ${file} of agent "${definition.id}" (${declaredAt(definition)}) does not exist or is not a file`,
    );
  }
  let module: Record<string, unknown>;
  try {
    module = await importHandler(file);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new HandlerLoadError(file, `Handler ${file} failed to load: ${why}`, { cause: error });
  }
  return executorOf(module, file);
}

/**
 * `loadHost`: reads a host's definitions — `concord.config.json5` (JSON5) and agent markdown
 * files (YAML frontmatter + system prompt) — validates them against the published schemas, and
 * returns the normalised `HostConfig`. Every problem in every file is collected before failing,
 * so one run lists all of them (DESIGN.md house style 12).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import JSON5 from 'json5';
import type { AgentDefinition } from '../../card/index.js';
import type { HostConfig } from '../host-config.js';
import { DefinitionError, ProblemSink, type DefinitionProblem } from './definition-error.js';
import { classifyTarget, listMarkdownFiles } from './find-definitions.js';
import { hasFrontmatter, parseMarkdown } from './frontmatter.js';
import { createJson5Locator } from './json5-locator.js';
import { normalizeAgent, type AgentSourceInput, type RawAgent } from './normalize-agent.js';
import { normalizeHostSettings, type HostSettings, type RawHostConfig } from './normalize-host.js';
import type { McpContext } from './normalize-mcp.js';
import { checkRequirementSchemes } from './requirement-schemes.js';
import { validateAgentFrontmatter, validateHostConfigDocument } from './schema-validation.js';

/** Options of `loadHost`. */
export interface LoadHostOptions {
  /** Where `{ env: "NAME" }` secrets are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * What the definitions are read for. `serve` (default): running the agents, so each must name a
   * `model` or a `handler`, and the MCP servers it uses must be defined. `describe`: cards and
   * contract audits (`concord card`, `concord contracts`), which run nothing and so need neither
   * (decision 0150). Everything else is checked the same.
   */
  purpose?: 'serve' | 'describe';
}

/** One loaded agent and where its id was written, for the cross-file checks. */
interface Loaded {
  agent: AgentDefinition;
  sink: ProblemSink;
  idField: string;
}

/**
 * Loads a host from a directory (its `concord.config.json5`/`.json` if any, plus agent markdown
 * files), a config file, or one agent markdown file. Throws `DefinitionError` listing every
 * problem found.
 */
export async function loadHost(target: string, options: LoadHostOptions = {}): Promise<HostConfig> {
  const env = options.env ?? process.env;
  const runnable = options.purpose !== 'describe';
  const problems: DefinitionProblem[] = [];
  const found = classifyTarget(target);
  if (found.kind === 'missing' || found.kind === 'unsupported') {
    const message =
      found.kind === 'missing'
        ? 'no such file or directory'
        : 'not a directory, an agent markdown file (.md) or a config file (.json5, .json)';
    throw new DefinitionError([{ file: found.path, field: '', message }]);
  }

  let configFile: string | undefined;
  let scan: Array<{ dir: string; recursive: boolean }> = [];
  const explicit: string[] = [];
  if (found.kind === 'markdown') explicit.push(found.file);
  if (found.kind === 'config') configFile = found.file;
  if (found.kind === 'directory') {
    configFile = found.configs[0];
    for (const extra of found.configs.slice(1)) {
      new ProblemSink(extra, undefined, problems).add(
        '',
        `ignored: ${found.configs[0]} is loaded; keep only one`,
      );
    }
    if (!configFile) scan = defaultScan(found.dir);
  }

  const loaded: Loaded[] = [];
  let settings: HostSettings = { signing: [], model: {}, mcpServers: {} };
  let declaredSchemes: string[] = [];
  let mcp: Omit<McpContext, 'modelAgent'> = { defined: [], hasConfig: false, runnable };
  let configSink: ProblemSink | undefined;
  if (configFile) {
    const sink = new ProblemSink(configFile, undefined, problems);
    configSink = sink;
    const raw = readConfig(configFile, sink);
    if (raw !== undefined) {
      validateHostConfigDocument(raw, sink, runnable);
      // Sections with schema problems are skipped below (ProblemSink.hasUnder), the rest still load.
      const config = (typeof raw === 'object' && raw !== null ? raw : {}) as RawHostConfig;
      settings = await normalizeHostSettings(config, configFile, sink, env);
      declaredSchemes = schemeNames(config);
      mcp = { defined: objectKeys(config.mcpServers), hasConfig: true, runnable };
      loaded.push(...configAgents(config, configFile, sink, { schemes: declaredSchemes, mcp }));
      scan = agentDirs(config, configFile, sink);
    }
  }

  const files = [...explicit, ...scan.flatMap(({ dir, recursive }) => listMarkdownFiles(dir, recursive))];
  for (const file of [...new Set(files)]) {
    const agent = loadMarkdownAgent(
      file,
      explicit.includes(file),
      { schemes: declaredSchemes, mcp },
      problems,
      runnable,
    );
    if (agent) loaded.push(agent);
  }

  checkDuplicateIds(loaded);
  if (configSink) {
    const requirements = settings.security?.requirements;
    checkRequirementSchemes(requirements, '/security/requirements', declaredSchemes, configSink);
  }

  if (problems.length > 0) throw new DefinitionError(sortProblems(problems));
  return {
    source: configFile ?? (found.kind === 'directory' ? found.dir : found.file),
    ...settings,
    agents: loaded.map((l) => l.agent),
  };
}

/** Without a config: the directory's own markdown files, and everything under `agents/`. */
function defaultScan(dir: string): Array<{ dir: string; recursive: boolean }> {
  const agents = join(dir, 'agents');
  const scan = [{ dir, recursive: false }];
  if (existsSync(agents) && statSync(agents).isDirectory()) scan.push({ dir: agents, recursive: true });
  return scan;
}

function readConfig(file: string, sink: ProblemSink): unknown {
  const text = readFileSync(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON5.parse(text);
  } catch (error) {
    const { lineNumber, message } = error as SyntaxError & { lineNumber?: number };
    sink.add('', message.replace(/ at \d+:\d+$/, ''), lineNumber);
    return undefined;
  }
  const locator = createJson5Locator(text);
  sink.locate(locator);
  for (const duplicate of locator.duplicateKeys) {
    sink.add(duplicate.pointer, 'duplicate key (JSON5 would keep only the last one)', duplicate.line);
  }
  return raw;
}

function schemeNames(config: RawHostConfig): string[] {
  return objectKeys(config.security?.schemes);
}

function objectKeys(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
}

/** What an agent is checked against: the schemes and MCP servers the host config declares. */
type HostNames = Pick<AgentSourceInput, 'schemes' | 'mcp'>;

/**
 * The agents written in the config: `agents.list` as the contracts seed writes it, or `agents`
 * as a list (the shape the loaded `HostConfig` has).
 */
function configAgents(config: RawHostConfig, file: string, sink: ProblemSink, names: HostNames): Loaded[] {
  const agents = config.agents;
  const [list, at] = Array.isArray(agents)
    ? [agents, '/agents']
    : [Array.isArray(agents?.list) ? agents.list : [], '/agents/list'];
  return list.flatMap((raw, index) => {
    const pointer = `${at}/${index}`;
    if (sink.hasUnder(pointer) || typeof raw !== 'object' || raw === null) return [];
    return [
      { agent: normalizeAgent({ raw, file, pointer, sink, ...names }), sink, idField: `${pointer}/id` },
    ];
  });
}

/** With a config: `agents.dir` (resolved against the config file), or the default directories. */
function agentDirs(
  config: RawHostConfig,
  file: string,
  sink: ProblemSink,
): Array<{ dir: string; recursive: boolean }> {
  const dir = Array.isArray(config.agents) ? undefined : config.agents?.dir;
  if (typeof dir !== 'string' || sink.hasUnder('/agents/dir')) return defaultScan(dirname(file));
  const full = resolve(dirname(file), dir);
  if (!existsSync(full) || !statSync(full).isDirectory()) {
    sink.add('/agents/dir', `not a directory: ${full}`);
    return [];
  }
  return [{ dir: full, recursive: true }];
}

/**
 * Loads one markdown agent. Scanned files without frontmatter are other markdown (a README) and
 * are skipped; a file named directly must be an agent.
 */
function loadMarkdownAgent(
  file: string,
  named: boolean,
  names: HostNames,
  problems: DefinitionProblem[],
  runnable: boolean,
): Loaded | undefined {
  const text = readFileSync(file, 'utf8');
  if (!named && !hasFrontmatter(text)) return undefined;
  const sink = new ProblemSink(file, undefined, problems);
  const parsed = parseMarkdown(text, sink);
  if (!parsed || sink.problems.length > 0 || !validateAgentFrontmatter(parsed.data, sink, runnable))
    return undefined;
  const agent = normalizeAgent({
    raw: parsed.data as RawAgent,
    file,
    pointer: '',
    body: parsed.body,
    sink,
    ...names,
  });
  return { agent, sink, idField: '/name' };
}

/** Agent ids are unique across all files; a clash is reported at every place the id is written. */
function checkDuplicateIds(loaded: Loaded[]): void {
  const byId = new Map<string, Loaded[]>();
  for (const entry of loaded) byId.set(entry.agent.id, [...(byId.get(entry.agent.id) ?? []), entry]);
  for (const [id, entries] of byId) {
    if (entries.length < 2) continue;
    for (const entry of entries) {
      const others = entries
        .filter((e) => e !== entry)
        .map((e) => `${e.sink.file}:${e.sink.lineOf(e.idField) ?? 1}`)
        .join(', ');
      entry.sink.add(entry.idField, `duplicate agent id "${id}" (also defined at ${others})`);
    }
  }
}

function sortProblems(problems: DefinitionProblem[]): DefinitionProblem[] {
  return [...problems].sort((a, b) =>
    a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1,
  );
}

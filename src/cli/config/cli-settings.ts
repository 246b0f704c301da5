/**
 * Settings of the calling commands from the environment and `.env` files (a2a-cli SPEC v0.2
 * §4.5, §5.2, §6.4; `A2ACLI_CONFIG_001`, `A2ACLI_CONFIG_002`; decision 0169). A setting is a long
 * flag; its variable is `A2ACLI_` and the flag in upper snake case (`--a2a-version` →
 * `A2ACLI_A2A_VERSION`). The first of these gives its value:
 *
 * 1. the flag on the command line (or an alias of it: `--token` stops `A2ACLI_BEARER`);
 * 2. the environment variable;
 * 3. the local file: `--config <path>`, else the first `.env` found walking up from the working
 *    directory, as git finds its repository;
 * 4. the global file, `.env` in Concord's configuration directory (`$XDG_CONFIG_HOME/concord`,
 *    else `~/.config/concord`, where `concord auth login` keeps its logins);
 * 5. the built-in default.
 *
 * A file is `A2ACLI_<FLAG>=value` lines (`#` comments, an optional `export `, quotes stripped);
 * other names are not read. `--stream`, `--help`, `--version`, the message parts and the aliases
 * have no variable (SPEC §5.2). Concord never writes these files: the user edits or deletes them,
 * and `concord config show` shows what they resolve to.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { registerSecret } from '../redaction.js';
import { UsageError } from '../exit-codes.js';

/** One setting: its flag, what applies without one, and the flags that stand for it. */
export interface Setting {
  flag: string;
  /** The built-in default, as `config show` and the usage texts say it. */
  builtIn: string;
  /** A credential: `config show` never prints it; it is redacted wherever else it appears. */
  secret?: boolean;
  /** Flags whose presence on the command line overrides a configured value of this one. */
  overriddenBy?: readonly string[];
}

/** Every setting a variable or a file may give. The per-command option tables say who takes which. */
export const SETTINGS: readonly Setting[] = [
  { flag: 'agent-card', builtIn: '(none)' },
  { flag: 'agent', builtIn: '(none)' },
  { flag: 'output', builtIn: 'text', overriddenBy: ['json'] },
  { flag: 'transport', builtIn: "the card's order", overriddenBy: ['binding'] },
  { flag: 'a2a-version', builtIn: '1.0' },
  { flag: 'bearer', builtIn: '(none)', secret: true, overriddenBy: ['token'] },
  { flag: 'api-key', builtIn: '(none)', secret: true },
  // `--wait` stated on the command line overrides a configured `--async` (SPEC §5.2).
  { flag: 'async', builtIn: 'false (wait)', overriddenBy: ['no-wait', 'return-immediately', 'wait'] },
  { flag: 'poll-interval', builtIn: '2s' },
  { flag: 'timeout', builtIn: '(none)' },
  { flag: 'request-timeout', builtIn: '30s' },
  { flag: 'max-response-bytes', builtIn: '16777216' },
  { flag: 'context-id', builtIn: '(none)', overriddenBy: ['context'] },
  { flag: 'task-id', builtIn: '(none)', overriddenBy: ['task'] },
  { flag: 'allow-private', builtIn: 'false' },
  { flag: 'insecure', builtIn: 'false' },
  { flag: 'ca-cert', builtIn: "(none: the system's roots only)" },
  { flag: 'verbose', builtIn: 'false' },
  { flag: 'debug', builtIn: 'false' },
  // `conformance`: the A2A TCK checkout to run (without one, Concord's own checklist runs).
  { flag: 'tck', builtIn: "(none: conformance runs Concord's checklist, not the A2A TCK)" },
];

/** `--a2a-version` → `A2ACLI_A2A_VERSION`. */
export function variableOf(flag: string): string {
  return `A2ACLI_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** Concord's configuration directory: `$XDG_CONFIG_HOME/concord`, else `~/.config/concord`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME;
  return join(config !== undefined && config !== '' ? config : join(homedir(), '.config'), 'concord');
}

/** A `.env` file as read: its path, whether it exists, and its `A2ACLI_` values. */
export interface SettingsFile {
  path: string;
  scope: 'local' | 'global';
  exists: boolean;
  values: ReadonlyMap<string, string>;
  /** Its mode (`0644`), when it exists. */
  mode?: string;
}

/** Reads a dotenv file; a line that is not `NAME=value` is a usage error naming the line. */
function readFile(path: string, scope: SettingsFile['scope'], required: boolean): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (required)
      throw new UsageError(`--config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return { path, scope, exists: false, values: new Map() };
  }
  const values = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (match === null) throw new UsageError(`${path}:${index + 1}: expected NAME=value`);
    let value = match[2]!;
    const quoted = /^(["'])(.*)\1$/.exec(value);
    value = quoted === null ? value.replace(/\s+#.*$/, '') : quoted[2]!;
    if (match[1]!.startsWith('A2ACLI_')) values.set(match[1]!, value);
  });
  const mode = (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
  return { path, scope, exists: true, values, mode };
}

/** The first `.env` from `dir` up to the filesystem root, or the one in `dir` when there is none. */
function findLocal(dir: string): string {
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      if (statSync(join(at, '.env')).isFile()) return join(at, '.env');
    } catch {
      // Not here: one level up.
    }
    if (dirname(at) === at) return join(resolve(dir), '.env');
  }
}

/** The local and global files, highest first; `config` is `--config <path>`. */
export function settingsFiles(config: string | undefined, cwd = process.cwd()): SettingsFile[] {
  return [
    config === undefined ? readFile(findLocal(cwd), 'local', false) : readFile(config, 'local', true),
    readFile(join(configDir(), '.env'), 'global', false),
  ];
}

/** Where a setting's value came from. */
export type SettingSource =
  | { kind: 'flag' }
  | { kind: 'environment'; variable: string }
  | { kind: 'file'; variable: string; path: string }
  | { kind: 'default' };

/** A setting's value from the environment or a file (undefined: the flag or the default decides). */
export function configuredValue(
  setting: Setting,
  files: readonly SettingsFile[],
  env: NodeJS.ProcessEnv = process.env,
): { value: string; source: SettingSource } | undefined {
  const variable = variableOf(setting.flag);
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv !== '')
    return { value: fromEnv, source: { kind: 'environment', variable } };
  for (const file of files) {
    const value = file.values.get(variable);
    if (value !== undefined && value !== '')
      return { value, source: { kind: 'file', variable, path: file.path } };
  }
  return undefined;
}

/** The long names of the options given on the command line. */
function givenOptions(args: readonly string[], options: ParseArgsConfig['options']): Set<string> {
  const { tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return new Set(tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : [])));
}

/** A configured text as the option's value: booleans `true`/`false` (`1`/`0`, `yes`/`no`), lists comma-separated. */
function optionValue(text: string, type: 'string' | 'boolean', multiple: boolean, variable: string): unknown {
  if (type === 'boolean') {
    const word = text.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(word)) return true;
    if (['false', '0', 'no'].includes(word)) return false;
    throw new UsageError(`${variable}: expected true or false, got ${JSON.stringify(text)}`);
  }
  return multiple ? text.split(',').map((part) => part.trim()) : text;
}

/** A warning for each file that holds a secret and that others may read (SPEC §6.4: mode 0600). */
export function exposureWarnings(files: readonly SettingsFile[]): string[] {
  const secrets = SETTINGS.filter((s) => s.secret === true).map((s) => variableOf(s.flag));
  return files
    .filter(
      (file) =>
        file.exists &&
        (parseInt(file.mode ?? '0', 8) & 0o077) !== 0 &&
        secrets.some((variable) => file.values.has(variable)),
    )
    .map(
      (file) =>
        `warning: ${file.path} holds a credential and others may read it (mode ${file.mode}); chmod 600 it`,
    );
}

/**
 * Fills the options of one command that the command line left out from the environment and the
 * files (`values` as parseArgs returned them, changed in place). Returns the warnings to print
 * (a secret in a file others may read).
 */
export function layerSettings(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
  values: Record<string, unknown>,
): string[] {
  const given = givenOptions(args, options);
  const config = typeof values.config === 'string' ? values.config : undefined;
  const files = settingsFiles(config);
  for (const setting of SETTINGS) {
    const option = options[setting.flag];
    if (option === undefined) continue;
    if ([setting.flag, ...(setting.overriddenBy ?? [])].some((name) => given.has(name))) continue;
    const found = configuredValue(setting, files);
    if (found === undefined) continue;
    const variable = variableOf(setting.flag);
    if (setting.secret === true) registerSecret(found.value);
    values[setting.flag] = optionValue(found.value, option.type, option.multiple === true, variable);
  }
  return exposureWarnings(files);
}

/** How `config show` and `--help` name a source. */
export function sourceText(source: SettingSource): string {
  switch (source.kind) {
    case 'flag':
      return 'flag';
    case 'environment':
      return `environment ${source.variable}`;
    case 'file':
      return `${source.path} ${source.variable}`;
    case 'default':
      return 'built-in default';
  }
}

/**
 * The part of a command's `--help` that shows the defaults the environment and the files set for
 * it (SPEC §4.5: the effective defaults, seen before overriding them); empty when none.
 */
export function settingsHelp(values: Record<string, unknown>): string {
  const config = typeof values.config === 'string' ? values.config : undefined;
  const files = settingsFiles(config);
  const lines: string[] = [];
  for (const setting of SETTINGS) {
    if (!(setting.flag in values)) continue;
    const found = configuredValue(setting, files);
    if (found === undefined) continue;
    const value = setting.secret === true ? '(set, not shown)' : found.value;
    lines.push(`  --${setting.flag} ${value}   from ${sourceText(found.source)}`);
  }
  if (lines.length === 0) return '';
  return `\nDefaults in force here, from the environment and .env files (concord config show):\n${lines.join('\n')}\n`;
}

/**
 * The output format the environment or the files set (`A2ACLI_OUTPUT`), for telling a failure
 * before the command line is parsed; undefined when none does or the files cannot be read (the
 * parse reports that).
 */
export function configuredOutput(config: string | undefined): string | undefined {
  const output = SETTINGS.find((setting) => setting.flag === 'output')!;
  try {
    return configuredValue(output, settingsFiles(config))?.value;
  } catch {
    return undefined;
  }
}

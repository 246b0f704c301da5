/**
 * `concord config show` (a2a-cli SPEC v0.2 §5.1, §6.4; `A2ACLI_CONFIG_001`, `A2ACLI_CONFIG_002`;
 * decision 0169): everything the CLI persists or reads as configuration, read-only. Each setting
 * of the calling commands with its effective value and where it came from (a flag given here, an
 * `A2ACLI_` variable, a `.env` file, or the built-in default), the files looked at, and the logins
 * `concord auth login` stored, with their file's path and mode. No token and no secret value is
 * ever printed. Nothing is written: the files are edited or deleted by hand, logins with
 * `concord auth logout`.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliIo } from '../cli-io.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { TokenFile, tokenFilePath } from '../auth/token-file.js';
import { CALL_OPTIONS, outputOf } from '../calls/call-flags.js';
import { runCall } from '../calls/call-runner.js';
import { field } from '../calls/task-text.js';
import {
  configuredValue,
  exposureWarnings,
  SETTINGS,
  settingsFiles,
  sourceText,
  variableOf,
  type SettingSource,
} from './cli-settings.js';

/** Usage text of `config`. */
export const CONFIG_USAGE = `Usage: concord config show [--config <path>] [-o json] [<setting flags>...]

Shows, read-only, what the calling commands would use: each setting's value and where it came
from (a flag given here, an A2ACLI_<OPTION> variable, a .env file, the built-in default), the
.env files looked at, and the logins concord auth login stored. Secrets show as set or not,
never their value. Change a setting with its flag, its variable or by editing the file; forget
a login with concord auth logout.

Options:
  --config <path>   the local file to read instead of the first .env from here up to /
  -o, --output      text (default) or json
  the calling commands' options (--output, --transport, --timeout...) show as set by a flag`;

/** The options the calling commands take as settings, so a flag given here shows as one. */
const OPTIONS = {
  ...CALL_OPTIONS,
  async: { type: 'boolean', default: false },
  'poll-interval': { type: 'string' },
  'context-id': { type: 'string' },
  'task-id': { type: 'string' },
  tck: { type: 'string' },
} as const;

/** One setting as shown. */
interface Shown {
  flag: string;
  variable: string;
  /** The value, or null for a secret (or a setting with none). */
  value: string | null;
  secret: boolean;
  set: boolean;
  source: string;
}

/** A file's mode as four octal digits (`0600`). */
function modeOf(path: string): string | undefined {
  try {
    return (statSync(path).mode & 0o777).toString(8).padStart(4, '0');
  } catch {
    return undefined;
  }
}

/** Runs `config`; returns the exit code. */
export function configCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'config', args, async () => {
    const [action, ...rest] = args;
    if (action === '--help' || action === '-h' || action === undefined) {
      if (action === undefined) throw new UsageError(`missing the action: show\n\n${CONFIG_USAGE}`);
      io.write(`${CONFIG_USAGE}\n`);
      return EXIT.OK;
    }
    if (action !== 'show') throw new UsageError(`unknown action ${JSON.stringify(action)}; expected show`);
    const { values, tokens } = parseArgs({ args: rest, options: OPTIONS, tokens: true });
    if (values.help === true) {
      io.write(`${CONFIG_USAGE}\n`);
      return EXIT.OK;
    }
    const given = new Set<string>(tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : [])));
    const files = settingsFiles(values.config);
    const settings: Shown[] = SETTINGS.map((setting) => {
      const secret = setting.secret === true;
      const flagged = [setting.flag, ...(setting.overriddenBy ?? [])].find((name) => given.has(name));
      let value: string | undefined;
      let source: SettingSource = { kind: 'default' };
      if (flagged !== undefined) {
        const raw = (values as Record<string, unknown>)[flagged];
        value =
          flagged === setting.flag ? String(raw) : `--${flagged}${raw === true ? '' : ` ${String(raw)}`}`;
        source = { kind: 'flag' };
      } else {
        const found = configuredValue(setting, files);
        if (found !== undefined) ({ value, source } = found);
      }
      return {
        flag: setting.flag,
        variable: variableOf(setting.flag),
        value: secret || value === undefined ? null : value,
        secret,
        set: value !== undefined,
        source: source.kind === 'default' ? `built-in default: ${setting.builtIn}` : sourceText(source),
      };
    });
    const store = new TokenFile(tokenFilePath());
    const logins = store.list();
    if (outputOf(values) === 'json') {
      io.write(
        `${JSON.stringify({
          files: files.map(({ path, scope, exists, mode }) => ({ path, scope, exists, mode: mode ?? null })),
          settings,
          logins: {
            path: store.path,
            mode: modeOf(store.path) ?? null,
            entries: logins.map((login) => ({
              agent: login.agent,
              name: login.name,
              clientId: login.clientId,
              grant: login.grant,
              loggedInAt: login.loggedInAt,
              expiresAt: new Date(login.tokens.expiresAt).toISOString(),
              refreshable: login.tokens.refreshToken !== undefined,
            })),
          },
        })}\n`,
      );
    } else {
      let out = '';
      for (const file of files)
        out += field(
          `File (${file.scope})`,
          `${file.path} ${file.exists ? `(mode ${file.mode})` : '(not found)'}`,
        );
      for (const shown of settings) {
        const value = shown.secret ? (shown.set ? '(set, not shown)' : '(not set)') : (shown.value ?? '');
        out += field(`--${shown.flag}`, `${value === '' ? '-' : value} [${shown.source}]`);
      }
      const mode = modeOf(store.path);
      out += field('Logins', `${store.path} ${mode === undefined ? '(none stored)' : `(mode ${mode})`}`);
      for (const login of logins)
        out += field(
          'Login',
          `${login.agent} as ${login.clientId} (${login.grant}), token expires ${new Date(login.tokens.expiresAt).toISOString()}${login.tokens.refreshToken === undefined ? '' : ', refreshable'}; token not shown`,
        );
      io.write(out);
    }
    for (const warning of exposureWarnings(files)) io.err(warning);
    return EXIT.OK;
  });
}

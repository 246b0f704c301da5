/**
 * `concord auth login | status | logout` (decision 0168; a2a-cli SPEC tier 2, A2ACLI_AUTH_005–007):
 * a login to an agent whose card declares an OAuth 2.0 or OpenID Connect scheme, stored per agent
 * in the user's token file (token-file.ts) and used by the calling commands from then on. A person
 * logs in with the device authorization grant (RFC 8628): the page and the code are shown on
 * stderr and the command waits for the approval; with `--client-secret` the client credentials
 * grant logs a machine in. No command prints a token.
 */
import { parseArgs } from 'node:util';
import {
  A2AClient,
  OAuthError,
  oauth2ClientCredentials,
  oauth2DeviceCode,
  type Credential,
  type DeviceLoginPrompt,
  type OAuth2Tokens,
} from '../../client/index.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CardResolutionError, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { agentUrl, networkPolicyFor, wireOptionsOf } from '../calls/call-flags.js';
import { authServerDebug } from '../calls/wire-debug.js';
import { registerSecret } from '../redaction.js';
import { runCall } from '../calls/call-runner.js';
import type { SecurityScheme } from '../../protocol/index.js';
import { schemeEndpoints } from './oauth-credentials.js';
import { agentKey, TokenFile, type StoredLogin } from './token-file.js';

/** Usage text of `auth`. */
export const AUTH_USAGE = `Usage: concord auth login <url> --client-id <id> [--client-secret <secret>] [options]
       concord auth status [<url>]
       concord auth logout <url>

Logs in to an agent whose card declares an OAuth 2.0 or OpenID Connect scheme; send, get, list,
cancel, subscribe and push-config then use the login for that agent, renewing its token with the
refresh token when it is about to expire. Without --client-secret a person logs in with the
device flow: open the page shown on stderr, enter the code, and the command finishes once the
login is approved. With --client-secret the client-credentials grant logs a machine in.

Options of login:
  --client-id <id>        the client registered at the agent's authorization server
                          (default: $CONCORD_CLIENT_ID)
  --client-secret <s>     a confidential client's secret: log in with client credentials
                          (default: $CONCORD_CLIENT_SECRET). A secret given as a flag shows in
                          the process table and the shell history: prefer the variable
  --agent <name>          the agent to log in to at an origin serving several (its AI Catalog)
  --allow-private         allow private and loopback targets beyond a loopback URL you typed
  --ca-cert <file>        also trust these root certificates (PEM), for an agent or
                          authorization server whose certificate chains to a private CA
  --debug                 the card fetch and each request to the authorization server, with
                          its answer, on stderr (secrets and tokens are never printed)

Logins are kept in $CONCORD_TOKEN_STORE, else $XDG_CONFIG_HOME/concord/tokens.json, else
~/.config/concord/tokens.json, readable by you only (mode 0600). status and logout take
--agent too. No command prints a token.`;

const OPTIONS = {
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  agent: { type: 'string' },
  'allow-private': { type: 'boolean', default: false },
  'ca-cert': { type: 'string' },
  debug: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Strips control characters, so text from a server cannot drive the terminal. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what is removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** A page to show: http(s) only, printable. */
function shownUrl(text: string): string {
  const clean = printable(text);
  if (!/^https?:\/\//i.test(clean))
    throw new CliFailure(
      A2ACLI_ERR.AUTH_FAILED,
      `the authorization server named a login page that is not a web address: ${JSON.stringify(clean.slice(0, 100))}`,
      EXIT.AUTH,
    );
  return clean;
}

function minutes(seconds: number): string {
  const m = Math.round(seconds / 60);
  return m <= 1 ? 'a minute' : `${m} minutes`;
}

/** When a token expires, for people: the time and how far off it is. */
export function expiryText(tokens: OAuth2Tokens, now = Date.now()): string {
  const at = new Date(tokens.expiresAt).toISOString();
  const left = Math.round((tokens.expiresAt - now) / 1000);
  if (left <= 0) return `expired at ${at}`;
  if (left < 120) return `expires at ${at} (in ${left} s)`;
  return `expires at ${at} (in ${minutes(left)})`;
}

/** Where the login prompt goes: stderr, so stdout stays for results. */
function promptOn(io: CliIo, name: string): (prompt: DeviceLoginPrompt) => void {
  return (prompt) => {
    io.err(`To log in to ${printable(name)}, open this page in a browser:`);
    io.err(`  ${shownUrl(prompt.verificationUri)}`);
    io.err(`and enter the code: ${printable(prompt.userCode)}`);
    if (prompt.verificationUriComplete !== undefined)
      io.err(`(or open ${shownUrl(prompt.verificationUriComplete)}, which carries the code)`);
    io.err(`The code expires in ${minutes(prompt.expiresIn)}. Waiting for the login to be approved…`);
  };
}

async function login(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'auth login', args, async ({ signal, facts }) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (values.help === true) {
      io.write(`${AUTH_USAGE}\n`);
      return EXIT.OK;
    }
    const url = agentUrl(positionals[0], AUTH_USAGE);
    if (positionals.length > 1) throw new UsageError(`auth login takes one agent URL\n\n${AUTH_USAGE}`);
    const env = (name: string): string | undefined =>
      process.env[name] === '' ? undefined : process.env[name];
    const clientId = values['client-id'] ?? env('CONCORD_CLIENT_ID');
    if (clientId === undefined)
      throw new UsageError(
        'auth login needs the client id registered at the agent’s authorization server: --client-id <id> (or CONCORD_CLIENT_ID)',
      );
    const secret = values['client-secret'] ?? env('CONCORD_CLIENT_SECRET');
    registerSecret(secret);
    const key = agentKey(url, values.agent);
    // --ca-cert and --debug as the calling commands take them (the card fetch's wire log too).
    const wire = wireOptionsOf(values, io);
    facts.credentials = true;
    let tokens: OAuth2Tokens | undefined;
    // A fresh login every time: nothing held is read, what is granted is kept.
    const store = {
      get: () => undefined,
      set: (_key: string, granted: OAuth2Tokens) => (tokens = granted),
      delete: () => {},
    };
    let name = key;
    const grant: Credential =
      secret === undefined
        ? oauth2DeviceCode({ clientId, store, onPrompt: (prompt) => promptOn(io, name)(prompt) })
        : oauth2ClientCredentials({ clientId, clientSecret: secret, store });
    // The scheme the login satisfies names the authorization server the login is good for.
    let scheme: SecurityScheme | undefined;
    const credential: Credential = {
      kind: grant.kind,
      fits: (candidate) => grant.fits(candidate),
      apply(call, context) {
        scheme = context.scheme;
        return grant.apply(call, context);
      },
    };
    let client: A2AClient;
    try {
      client = await A2AClient.connect(url, {
        ...networkPolicyFor(url, values['allow-private'] === true),
        ...wire,
        ...(values.debug === true ? { onAuthServerExchange: authServerDebug(io) } : {}),
        auth: credential,
        signal,
        ...(values.agent === undefined ? {} : { agent: values.agent }),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new CardResolutionError(error);
    }
    name = client.card.name;
    const noScheme = new CliFailure(
      'CONCORD_ERR_NO_LOGIN_SCHEME',
      `the card of "${name}" requires no OAuth 2.0 or OpenID Connect scheme a ${secret === undefined ? 'device login' : 'client-credentials grant'} satisfies; there is nothing to log in to`,
      EXIT.FAILURE,
    );
    const schemes = client.card.securitySchemes ?? {};
    const required = (client.card.securityRequirements ?? []).flatMap((r) => Object.keys(r.schemes));
    if (!required.some((named) => schemes[named] !== undefined && grant.fits(schemes[named]))) {
      client.close();
      throw noScheme;
    }
    try {
      await client.authenticate({ signal });
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      throw new CliFailure(
        A2ACLI_ERR.AUTH_FAILED,
        `the login to ${key} failed: ${error.message}`,
        EXIT.AUTH,
        error.error === 'invalid_client' || error.error === 'unauthorized_client'
          ? 'check --client-id (and --client-secret): the authorization server does not accept this client'
          : null,
      );
    } finally {
      client.close();
    }
    // Another alternative of the card's requirements was chosen, one the login does not satisfy.
    if (tokens === undefined || schemeEndpoints(scheme).length === 0) throw noScheme;
    // A client-credentials refresh would need the secret, which is not stored: no refresh token.
    if (secret !== undefined) delete tokens.refreshToken;
    const file = new TokenFile();
    file.put({
      agent: key,
      name,
      clientId,
      grant: secret === undefined ? 'device_code' : 'client_credentials',
      loggedInAt: new Date().toISOString(),
      interfaces: client.card.supportedInterfaces.map((i) => i.url),
      authorizationServer: schemeEndpoints(scheme),
      tokens,
    });
    const renewal = tokens.refreshToken === undefined ? '' : '; it is renewed with its refresh token';
    io.write(`Logged in to ${printable(name)} (${key}). The access token ${expiryText(tokens)}${renewal}.\n`);
    return EXIT.OK;
  });
}

/** One login, for people; never a token. */
function statusText(login: StoredLogin, now = Date.now()): string {
  const how = login.grant === 'device_code' ? 'device login' : 'client credentials';
  const renewal =
    login.tokens.refreshToken !== undefined
      ? 'a refresh token is held: the next call renews the access token when it is due'
      : login.tokens.expiresAt <= now
        ? 'no refresh token: log in again'
        : 'no refresh token: log in again once it expires';
  return [
    `${login.agent}  ${printable(login.name)}`,
    `  logged in ${login.loggedInAt} as client ${login.clientId} (${how}); scopes: ${login.tokens.scopes.join(' ') || '(none)'}`,
    `  access token ${expiryText(login.tokens, now)}; ${renewal}`,
  ].join('\n');
}

async function status(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'auth status', args, () => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (values.help === true) {
      io.write(`${AUTH_USAGE}\n`);
      return Promise.resolve(EXIT.OK);
    }
    const file = new TokenFile();
    const mode = file.mode();
    if (mode !== undefined && (mode & 0o077) !== 0)
      io.err(
        `warning: ${file.path} is readable by others (mode ${mode.toString(8)}); run: chmod 600 ${file.path}`,
      );
    if (positionals[0] !== undefined) {
      const key = agentKey(agentUrl(positionals[0], AUTH_USAGE), values.agent);
      const login = file.get(key);
      if (login === undefined) {
        io.write(`Not logged in to ${key}.\n`);
        return Promise.resolve(EXIT.FAILURE);
      }
      io.write(`${statusText(login)}\n`);
      return Promise.resolve(EXIT.OK);
    }
    const logins = file.list();
    io.write(
      logins.length === 0
        ? `No stored logins (${file.path}).\n`
        : `Logins in ${file.path}:\n${logins.map((l) => statusText(l)).join('\n')}\n`,
    );
    return Promise.resolve(EXIT.OK);
  });
}

async function logout(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'auth logout', args, () => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (values.help === true) {
      io.write(`${AUTH_USAGE}\n`);
      return Promise.resolve(EXIT.OK);
    }
    const key = agentKey(agentUrl(positionals[0], AUTH_USAGE), values.agent);
    const file = new TokenFile();
    io.write(
      file.remove(key)
        ? `Logged out of ${key}: its tokens are deleted from ${file.path}.\n`
        : `No stored login for ${key}.\n`,
    );
    return Promise.resolve(EXIT.OK);
  });
}

/** Runs `concord auth <login|status|logout>`; returns the exit code. */
export function authCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'login') return login(rest, io);
  if (sub === 'status') return status(rest, io);
  if (sub === 'logout') return logout(rest, io);
  if (sub === '--help' || sub === '-h') {
    io.write(`${AUTH_USAGE}\n`);
    return Promise.resolve(EXIT.OK);
  }
  if (sub === undefined) {
    io.err(AUTH_USAGE);
    return Promise.resolve(EXIT.USAGE);
  }
  return Promise.reject(new UsageError(`auth: expected login, status or logout, got ${JSON.stringify(sub)}`));
}

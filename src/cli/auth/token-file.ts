/**
 * The CLI's stored logins (decision 0168): one JSON file per user, readable by that user only
 * (mode 0600 in a 0700 directory, written whole to a temporary file and renamed over the old one,
 * so a crash never leaves half a file). `$CONCORD_TOKEN_STORE` names the file; otherwise
 * `$XDG_CONFIG_HOME/concord/tokens.json`, else `~/.config/concord/tokens.json`. Logins are kept
 * per agent, under the agent's URL as the user typed it (normalised; see `agentKey`), with the
 * interface URLs and authorization server they are good for (oauth-credentials.ts).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OAuth2Tokens } from '../../client/index.js';
import { configDir } from '../config/cli-settings.js';

/** One agent's login. */
export interface StoredLogin {
  /** The agent, as `agentKey` names it. */
  agent: string;
  /** The name on the agent's card, for people. */
  name: string;
  /** The client id the tokens were issued to (a refresh presents it again). */
  clientId: string;
  /** How the login was made. */
  grant: 'device_code' | 'client_credentials';
  /** The agent's interface URLs at login: the token is presented to these only. */
  interfaces: string[];
  /** The endpoints the card's scheme named (token, device, metadata, discovery URLs): its server. */
  authorizationServer: string[];
  /** When, as an ISO time. */
  loggedInAt: string;
  tokens: OAuth2Tokens;
}

interface TokenFileContent {
  version: 1;
  logins: Record<string, StoredLogin>;
}

/** The path of the token file for this user and environment. */
export function tokenFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CONCORD_TOKEN_STORE;
  if (override !== undefined && override !== '') return override;
  return join(configDir(env), 'tokens.json');
}

/**
 * The key of an agent's login: its URL without query or fragment, the card location segment
 * (`.well-known/agent-card.json`, `agent.json`) dropped and a trailing slash added, as the card
 * resolver reads it; with `--agent`, the catalog name after it.
 */
export function agentKey(url: URL, agent?: string): string {
  const at = new URL(url.href);
  at.search = '';
  at.hash = '';
  at.pathname = at.pathname.replace(/\.well-known\/(agent-card|agent)\.json$/, '');
  if (!at.pathname.endsWith('/') && !at.pathname.endsWith('.json')) at.pathname += '/';
  return agent === undefined ? at.href : `${at.href} --agent ${agent}`;
}

/** The token file: read and written whole. */
export class TokenFile {
  constructor(readonly path: string = tokenFilePath()) {}

  private read(): TokenFileContent {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, logins: {} };
      throw error;
    }
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch {
      throw new Error(`The token file ${this.path} is not JSON; delete it and log in again`);
    }
    const logins = (content as { logins?: unknown } | null)?.logins;
    if (typeof logins !== 'object' || logins === null || Array.isArray(logins))
      throw new Error(`The token file ${this.path} holds no logins; delete it and log in again`);
    return { version: 1, logins: logins as Record<string, StoredLogin> };
  }

  private write(content: TokenFileContent): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    // The mode given is masked by the umask; this one is not.
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }

  /** The login for `agent`, if one is stored. */
  get(agent: string): StoredLogin | undefined {
    const logins = this.read().logins;
    return Object.hasOwn(logins, agent) ? logins[agent] : undefined;
  }

  /** Every stored login. */
  list(): StoredLogin[] {
    return Object.values(this.read().logins);
  }

  /** Stores (or replaces) a login. */
  put(login: StoredLogin): void {
    const content = this.read();
    content.logins[login.agent] = login;
    this.write(content);
  }

  /** Forgets the login for `agent`; false when there was none. */
  remove(agent: string): boolean {
    const content = this.read();
    if (!Object.hasOwn(content.logins, agent)) return false;
    delete content.logins[agent];
    this.write(content);
    return true;
  }

  /** The file's permission bits, when it exists. */
  mode(): number | undefined {
    try {
      return statSync(this.path).mode & 0o777;
    } catch {
      return undefined;
    }
  }
}

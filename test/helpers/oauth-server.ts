/**
 * A small but real OAuth 2.0 authorization server for tests, on 127.0.0.1 (decision 0168):
 * server metadata (RFC 8414) and OpenID Connect discovery, the client credentials grant
 * (RFC 6749 §4.4), the device authorization grant (RFC 8628) with approval and denial driven by
 * the test and the polling interval enforced with `slow_down`, refresh tokens with expiry and
 * rotation (RFC 6749 §6, RFC 9700 §4.14.2), and error answers as RFC 6749 §5.2 spells them.
 * Issued access tokens are opaque; `introspect` says whether one is live (the agent's check).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A registered client; one without a secret is public (a CLI). */
export interface OAuthTestClient {
  secret?: string;
}

/** Options of the test server. */
export interface OAuthServerOptions {
  clients: Record<string, OAuthTestClient>;
  /** Seconds an access token lives (default 3600). */
  accessTokenTtl?: number;
  /** Seconds a refresh token lives (default 86400). */
  refreshTokenTtl?: number;
  /** Issue a refresh token with client-credentials grants too (RFC 6749 §4.4.3 says SHOULD NOT). */
  refreshForClientCredentials?: boolean;
  /** Polling interval the device flow asks for, in seconds (default 1). */
  deviceInterval?: number;
  /** Seconds a device code lives (default 600). */
  deviceCodeTtl?: number;
  /** Answer the first poll of every device code with `slow_down`. */
  slowDownFirstPoll?: boolean;
  /** The issuer the metadata documents name (default: the server's own URL, as it must). */
  issuer?: string;
  /** Answer every grant with an `id_token` too, as an OpenID provider does (opaque here). */
  idToken?: boolean;
}

/** A grant request the server answered. */
export interface GrantRecord {
  grantType: string;
  clientId: string | undefined;
  /** What the server answered: `ok` or the OAuth error code. */
  outcome: string;
  at: number;
}

interface AccessRecord {
  clientId: string;
  subject: string;
  scopes: string[];
  expiresAt: number;
}

interface RefreshRecord {
  clientId: string;
  subject: string;
  scopes: string[];
  expiresAt: number;
}

interface DeviceRecord {
  clientId: string;
  userCode: string;
  scopes: string[];
  expiresAt: number;
  interval: number;
  state: 'pending' | 'approved' | 'denied' | 'used';
  subject?: string;
  lastPoll?: number;
  polls: number;
}

/** A running test server. */
export interface OAuthServer {
  /** Its base URL, with a trailing slash (the issuer). */
  url: string;
  tokenUrl: string;
  deviceAuthorizationUrl: string;
  /** Every grant request, in order. */
  grants: GrantRecord[];
  /** Paths of the GETs (metadata documents) in order. */
  documentGets: string[];
  /** Every raw request body the server received (to look for leaks). */
  bodies: string[];
  /** Every token the server issued: access, refresh and ID tokens, and device codes (to look for leaks). */
  issued: string[];
  /** Whether `token` is a live access token; with whom it was issued to. */
  introspect(token: string | undefined): {
    active: boolean;
    clientId?: string;
    subject?: string;
    scopes?: string[];
  };
  /** Resolves with the user code of the next device authorization (or the current one). */
  nextUserCode(): Promise<string>;
  /** The person approves the code as `subject`. */
  approve(userCode: string, subject?: string): void;
  /** The person denies the code. */
  deny(userCode: string): void;
  /** Every refresh token issued so far expires now. */
  expireRefreshTokens(): void;
  /** Polls of the device code behind `userCode`, as arrival times (ms). */
  pollTimes(userCode: string): number[];
  close(): Promise<void>;
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const token = (): string => randomBytes(24).toString('base64url');

function userCode(): string {
  const letters = 'BCDFGHJKLMNPQRSTVWXZ';
  const pick = (): string => Array.from(randomBytes(4), (b) => letters[b % letters.length]).join('');
  return `${pick()}-${pick()}`;
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startOAuthServer(options: OAuthServerOptions): Promise<OAuthServer> {
  const access = new Map<string, AccessRecord>();
  const refresh = new Map<string, RefreshRecord>();
  const devices = new Map<string, DeviceRecord>();
  const pollLog = new Map<string, number[]>();
  const grants: GrantRecord[] = [];
  const documentGets: string[] = [];
  const bodies: string[] = [];
  const issued: string[] = [];
  const codeWaiters: ((code: string) => void)[] = [];
  let latestCode: string | undefined;
  let base = '';

  const accessTtl = options.accessTokenTtl ?? 3600;
  const refreshTtl = options.refreshTokenTtl ?? 86_400;

  function json(
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(JSON.stringify(body));
  }

  /** The client the request authenticates as (RFC 6749 §2.3.1), or the error to answer. */
  function authenticateClient(
    request: http.IncomingMessage,
    form: URLSearchParams,
  ): { clientId: string } | { error: string; status: number; basic: boolean } {
    const header = request.headers.authorization;
    let id: string | undefined;
    let secret: string | undefined;
    const basic = header?.startsWith('Basic ') === true;
    if (basic) {
      const [rawId, rawSecret] = Buffer.from(header!.slice(6), 'base64').toString().split(':');
      id = decodeURIComponent(rawId ?? '');
      secret = decodeURIComponent(rawSecret ?? '');
    } else {
      id = form.get('client_id') ?? undefined;
      secret = form.get('client_secret') ?? undefined;
    }
    const client = id === undefined ? undefined : options.clients[id];
    if (id === undefined || client === undefined) return { error: 'invalid_client', status: 401, basic };
    if (client.secret !== undefined && client.secret !== secret)
      return { error: 'invalid_client', status: 401, basic };
    return { clientId: id };
  }

  function issue(clientId: string, subject: string, scopes: string[], withRefresh: boolean) {
    const accessToken = token();
    const now = Date.now();
    access.set(accessToken, { clientId, subject, scopes, expiresAt: now + accessTtl * 1000 });
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: accessTtl,
      scope: scopes.join(' '),
    };
    issued.push(accessToken);
    if (withRefresh) {
      const refreshToken = token();
      refresh.set(refreshToken, { clientId, subject, scopes, expiresAt: now + refreshTtl * 1000 });
      body.refresh_token = refreshToken;
      issued.push(refreshToken);
    }
    if (options.idToken === true) {
      body.id_token = token();
      issued.push(body.id_token as string);
    }
    return body;
  }

  function grant(
    response: http.ServerResponse,
    record: GrantRecord,
    status: number,
    body: unknown,
    headers?: Record<string, string>,
  ) {
    grants.push(record);
    json(response, status, body, headers);
  }

  function tokenEndpoint(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    form: URLSearchParams,
  ) {
    const grantType = form.get('grant_type') ?? '';
    const who = authenticateClient(request, form);
    const record = (outcome: string, clientId?: string): GrantRecord => ({
      grantType,
      clientId,
      outcome,
      at: Date.now(),
    });
    if ('error' in who) {
      // RFC 6749 §5.2: 401 with a challenge when the client tried HTTP Basic.
      const headers: Record<string, string> = who.basic ? { 'www-authenticate': 'Basic realm="test"' } : {};
      return grant(
        response,
        record(who.error),
        who.status,
        { error: who.error, error_description: 'Client authentication failed' },
        headers,
      );
    }
    const clientId = who.clientId;
    const fail = (error: string, description: string) =>
      grant(response, record(error, clientId), 400, { error, error_description: description });
    if (grantType === 'client_credentials') {
      if (options.clients[clientId]?.secret === undefined)
        return fail('unauthorized_client', 'public clients cannot use client_credentials');
      const scopes = (form.get('scope') ?? '').split(' ').filter((s) => s !== '');
      return grant(
        response,
        record('ok', clientId),
        200,
        issue(clientId, clientId, scopes, options.refreshForClientCredentials === true),
      );
    }
    if (grantType === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const held = refresh.get(presented);
      if (held === undefined || held.clientId !== clientId || held.expiresAt <= Date.now())
        return fail('invalid_grant', 'the refresh token is invalid or expired');
      // Rotation: the presented token is used up (RFC 9700 §4.14.2).
      refresh.delete(presented);
      return grant(response, record('ok', clientId), 200, issue(clientId, held.subject, held.scopes, true));
    }
    if (grantType === DEVICE_GRANT) {
      const code = form.get('device_code') ?? '';
      const device = devices.get(code);
      if (device === undefined || device.clientId !== clientId)
        return fail('invalid_grant', 'unknown device code');
      const now = Date.now();
      pollLog.get(device.userCode)?.push(now);
      const tooSoon = device.lastPoll !== undefined && now - device.lastPoll < device.interval * 1000 - 50;
      const first = device.polls === 0;
      device.polls += 1;
      device.lastPoll = now;
      if (device.expiresAt <= now) return fail('expired_token', 'the device code expired');
      // RFC 8628 §3.5: polling faster than asked slows the client down, for good.
      if (tooSoon || (first && options.slowDownFirstPoll === true)) {
        device.interval += 5;
        return fail('slow_down', 'poll less often');
      }
      if (device.state === 'pending') return fail('authorization_pending', 'waiting for the person');
      if (device.state === 'denied') return fail('access_denied', 'the person said no');
      if (device.state === 'used') return fail('invalid_grant', 'the device code was used');
      device.state = 'used';
      return grant(
        response,
        record('ok', clientId),
        200,
        issue(clientId, device.subject ?? 'person', device.scopes, true),
      );
    }
    return fail('unsupported_grant_type', `no ${grantType}`);
  }

  function deviceEndpoint(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    form: URLSearchParams,
  ) {
    const who = authenticateClient(request, form);
    if ('error' in who) return json(response, who.status, { error: who.error });
    const code = userCode();
    const deviceCode = token();
    issued.push(deviceCode);
    const ttl = options.deviceCodeTtl ?? 600;
    devices.set(deviceCode, {
      clientId: who.clientId,
      userCode: code,
      scopes: (form.get('scope') ?? '').split(' ').filter((s) => s !== ''),
      expiresAt: Date.now() + ttl * 1000,
      interval: options.deviceInterval ?? 1,
      state: 'pending',
      polls: 0,
    });
    pollLog.set(code, []);
    latestCode = code;
    for (const waiter of codeWaiters.splice(0)) waiter(code);
    json(response, 200, {
      device_code: deviceCode,
      user_code: code,
      verification_uri: `${base}device`,
      verification_uri_complete: `${base}device?user_code=${code}`,
      expires_in: ttl,
      interval: options.deviceInterval ?? 1,
    });
  }

  function metadata(): Record<string, unknown> {
    return {
      issuer: options.issuer ?? base.replace(/\/$/, ''),
      token_endpoint: `${base}token`,
      device_authorization_endpoint: `${base}device_authorization`,
      grant_types_supported: ['client_credentials', 'refresh_token', DEVICE_GRANT],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    };
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      bodies.push(body);
      const path = new URL(request.url ?? '/', base).pathname;
      if (request.method === 'GET') {
        documentGets.push(path);
        if (path === '/.well-known/oauth-authorization-server') return json(response, 200, metadata());
        if (path === '/.well-known/openid-configuration')
          return json(response, 200, {
            ...metadata(),
            authorization_endpoint: `${base}authorize`,
            jwks_uri: `${base}jwks`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['ES256'],
          });
        return json(response, 404, { error: 'not_found' });
      }
      if (
        request.method !== 'POST' ||
        request.headers['content-type'] !== 'application/x-www-form-urlencoded'
      )
        return json(response, 400, {
          error: 'invalid_request',
          error_description: 'a form POST is expected',
        });
      const form = new URLSearchParams(body);
      if (path === '/token') return tokenEndpoint(request, response, form);
      if (path === '/device_authorization') return deviceEndpoint(request, response, form);
      return json(response, 404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  function device(code: string): DeviceRecord {
    for (const record of devices.values()) if (record.userCode === code) return record;
    throw new Error(`no device code with user code ${code}`);
  }

  return {
    url: base,
    tokenUrl: `${base}token`,
    deviceAuthorizationUrl: `${base}device_authorization`,
    grants,
    documentGets,
    bodies,
    issued,
    introspect(presented) {
      const record = presented === undefined ? undefined : access.get(presented);
      if (record === undefined || record.expiresAt <= Date.now()) return { active: false };
      return { active: true, clientId: record.clientId, subject: record.subject, scopes: record.scopes };
    },
    nextUserCode: () =>
      latestCode !== undefined && devices.size > 0 && device(latestCode).state === 'pending'
        ? Promise.resolve(latestCode)
        : new Promise((resolve) => codeWaiters.push(resolve)),
    approve(code, subject = 'person') {
      const record = device(code);
      record.state = 'approved';
      record.subject = subject;
    },
    deny(code) {
      device(code).state = 'denied';
    },
    expireRefreshTokens() {
      for (const record of refresh.values()) record.expiresAt = 0;
    },
    pollTimes: (code) => pollLog.get(code) ?? [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

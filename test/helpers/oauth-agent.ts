/**
 * The echo agent behind OAuth 2.0 (decision 0168): its card declares a scheme of the test
 * authorization server (helpers/oauth-server.ts) and requires it, and it accepts only live access
 * tokens that server issued, recording every token presented.
 */
import type { SecurityScheme } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from './echo-server.js';
import type { OAuthServer } from './oauth-server.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

/** The scope every test scheme requires. */
export const AGENT_SCOPE = 'agent:call';

/** An oauth2 scheme with a client-credentials flow at `oauth`. */
export function clientCredentialsScheme(oauth: OAuthServer): SecurityScheme {
  return {
    oauth2SecurityScheme: {
      flows: { clientCredentials: { tokenUrl: oauth.tokenUrl, scopes: { [AGENT_SCOPE]: 'call the agent' } } },
    },
  };
}

/** An oauth2 scheme with a device-code flow at `oauth`, and its RFC 8414 metadata URL. */
export function deviceCodeScheme(oauth: OAuthServer): SecurityScheme {
  return {
    oauth2SecurityScheme: {
      flows: {
        deviceCode: {
          deviceAuthorizationUrl: oauth.deviceAuthorizationUrl,
          tokenUrl: oauth.tokenUrl,
          scopes: { [AGENT_SCOPE]: 'call the agent' },
        },
      },
      oauth2MetadataUrl: `${oauth.url}.well-known/oauth-authorization-server`,
    },
  };
}

/** An OpenID Connect scheme whose discovery document is `oauth`'s. */
export function openIdScheme(oauth: OAuthServer): SecurityScheme {
  return {
    openIdConnectSecurityScheme: { openIdConnectUrl: `${oauth.url}.well-known/openid-configuration` },
  };
}

/** A running agent and the bearer tokens presented to it. */
export interface OAuthAgent extends EchoServer {
  presented: (string | undefined)[];
}

/** Starts the echo agent requiring `scheme` (named `corp`) with the scope AGENT_SCOPE. */
export async function startOAuthAgent(oauth: OAuthServer, scheme: SecurityScheme): Promise<OAuthAgent> {
  const presented: (string | undefined)[] = [];
  const echo = await startEcho({
    agentCard: {
      ...(echoAgent.agentCard as object),
      securitySchemes: { corp: scheme },
      securityRequirements: [{ schemes: { corp: { list: [AGENT_SCOPE] } } }],
    } as never,
    authenticate: (request) => {
      const token = /^Bearer (.+)$/.exec(request.header('authorization') ?? '')?.[1];
      presented.push(token);
      const info = oauth.introspect(token);
      if (!info.active || !(info.scopes ?? []).includes(AGENT_SCOPE)) return undefined;
      return { name: info.subject ?? 'unknown' };
    },
  });
  return Object.assign(echo, { presented });
}

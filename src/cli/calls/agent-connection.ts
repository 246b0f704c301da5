/**
 * Opens the agent a calling command talks to (decision 0169): resolves its card, picks the
 * interface, and tells failures apart as a2a-cli SPEC §9.6 asks: anything that goes wrong while
 * the card is resolved is a card failure (no card: exit 3), and a card that requires credentials
 * none were given for stops before any operation is sent (A2ACLI_ERR_CREDENTIALS_MISSING, exit 4),
 * with a hint naming the flags its security schemes take.
 */
import type { A2AClient } from '../../client/index.js';
import type { AgentCard, SecurityScheme } from '../../protocol/index.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CardResolutionError, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { connectClient, credentialsOf, type CallFlags } from './call-flags.js';
import type { CallContext } from './call-runner.js';

/** Resolves the card at `url` and connects; failures carry what the CLI reports them as. */
export async function openAgent(
  url: URL,
  flags: CallFlags,
  context: CallContext,
  io: CliIo,
): Promise<A2AClient> {
  const given = credentialsOf(flags).length > 0;
  context.facts.credentials = given;
  let client: A2AClient;
  try {
    client = await connectClient(url, flags, context.signal, io);
  } catch (error) {
    if (error instanceof UsageError || context.signal.aborted) throw error;
    throw new CardResolutionError(error);
  }
  if (!given) {
    const needed = requiredSchemes(client.card);
    if (needed !== undefined) {
      client.close();
      throw new CliFailure(
        A2ACLI_ERR.CREDENTIALS_MISSING,
        `the card of "${client.card.name}" requires credentials (${needed.names.join(' or ')}) and none were given`,
        EXIT.AUTH,
        needed.hint,
      );
    }
  }
  return client;
}

/**
 * The schemes a card requires of every caller, with the flags that satisfy them; undefined when
 * the card lets a caller in without credentials (no requirement, or an empty alternative).
 */
export function requiredSchemes(card: AgentCard): { names: string[]; hint: string } | undefined {
  const requirements = card.securityRequirements ?? [];
  if (requirements.length === 0) return undefined;
  if (requirements.some((r) => Object.keys(r.schemes).length === 0)) return undefined;
  const names = [...new Set(requirements.flatMap((r) => Object.keys(r.schemes)))];
  const flags = new Set<string>();
  for (const name of names) {
    const scheme = card.securitySchemes?.[name];
    if (scheme !== undefined) flags.add(flagFor(scheme));
  }
  const options = flags.size === 0 ? ['--bearer <token>', '--api-key <key>'] : [...flags];
  return { names, hint: `pass ${options.join(' or ')}` };
}

/** How a caller satisfies one scheme from the command line. */
function flagFor(scheme: SecurityScheme): string {
  if ('apiKeySecurityScheme' in scheme)
    return `--api-key <key> (sent in the ${scheme.apiKeySecurityScheme.location} ${JSON.stringify(scheme.apiKeySecurityScheme.name)}; or set A2ACLI_API_KEY)`;
  if ('httpAuthSecurityScheme' in scheme)
    return `--bearer <token> (HTTP ${scheme.httpAuthSecurityScheme.scheme}; or set A2ACLI_BEARER)`;
  if ('oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme)
    return '--bearer <token> (an OAuth 2.0 / OpenID Connect access token; or set A2ACLI_BEARER)';
  return '--bearer <token> or --api-key <key>';
}

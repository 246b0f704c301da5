/**
 * `concord contracts list <dir|config|agent-url>`: every contract an agent (or a host's agents)
 * declares, from the definitions or from a running agent's card. `concord contracts deprecated
 * <dir|config>`: the deprecated ones, with their message and replacement (seed "Versioning &
 * deprecation", `listDeprecatedContracts`).
 */
import { listDeprecatedContracts } from '../../contracts/internal.js';
import { CONTRACTS_EXTENSION_URI, loadHost, publishedContracts } from '../../host/internal.js';
import { EXIT, UsageError } from '../exit-codes.js';

/** Usage text of `contracts`. */
export const CONTRACTS_USAGE = `Usage: concord contracts list <agents-dir|config.json5|agent-url>
       concord contracts deprecated <agents-dir|config.json5>`;

type Out = (line: string) => void;

/** An audit reads the contracts and runs nothing, so its agents need no model or handler (0150). */
const DESCRIBE = { purpose: 'describe' } as const;

interface Listed {
  agentId: string;
  name: string;
  version?: unknown;
  description?: unknown;
  deprecated?: unknown;
  requiresApproval?: unknown;
  supersededBy?: unknown;
}

/** Runs `contracts`; returns the exit code. */
export async function contractsCommand(args: string[], out: Out): Promise<number> {
  const [action, target] = args;
  if (action === undefined || action === '--help' || target === undefined) {
    out(CONTRACTS_USAGE);
    return action === '--help' ? 0 : EXIT.USAGE;
  }
  if (action === 'deprecated') {
    const config = await loadHost(target, DESCRIBE);
    const deprecated = listDeprecatedContracts(config);
    if (deprecated.length === 0) out('no deprecated contracts');
    for (const d of deprecated) {
      const next = d.supersededBy === undefined ? '' : ` -> ${d.supersededBy}`;
      out(
        `${d.agentId}  ${d.contract}${d.version === undefined ? '' : `@${d.version}`}${next}  ${d.message}`,
      );
    }
    return 0;
  }
  if (action !== 'list')
    throw new UsageError(`unknown contracts action ${JSON.stringify(action)}\n\n${CONTRACTS_USAGE}`);
  const listed = /^https?:\/\//.test(target) ? await fromCard(target) : await fromDefinitions(target);
  if (listed.length === 0) out('no contracts');
  for (const c of listed) {
    const flags = [
      c.version === undefined ? '' : `v${String(c.version)}`,
      c.deprecated === true
        ? `deprecated${c.supersededBy === undefined ? '' : ` -> ${String(c.supersededBy)}`}`
        : '',
      c.requiresApproval === true ? 'requires approval' : '',
    ].filter((f) => f !== '');
    const description = typeof c.description === 'string' ? `  ${c.description}` : '';
    out(`${c.agentId}  ${c.name}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}${description}`);
  }
  return 0;
}

async function fromDefinitions(target: string): Promise<Listed[]> {
  const config = await loadHost(target, DESCRIBE);
  return config.agents.flatMap((agent) =>
    publishedContracts(agent).contracts.map((c) => ({ ...c, agentId: agent.id }) as Listed),
  );
}

/** Reads the contracts extension of a running agent's card (1.0 form). */
async function fromCard(url: string): Promise<Listed[]> {
  const cardUrl = `${url.replace(/\/?$/, '/')}.well-known/agent-card.json`;
  const response = await fetch(cardUrl, {
    headers: { 'a2a-version': '1.0' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${cardUrl}: HTTP ${response.status}`);
  const card = (await response.json()) as {
    name?: string;
    capabilities?: { extensions?: { uri: string; params?: { contracts?: Record<string, unknown>[] } }[] };
  };
  const extension = card.capabilities?.extensions?.find((e) => e.uri === CONTRACTS_EXTENSION_URI);
  return (extension?.params?.contracts ?? []).map((c) => ({ ...c, agentId: card.name ?? url }) as Listed);
}

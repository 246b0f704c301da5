/**
 * The card an agent of a host config serves, without serving it (`concord card <dir>`; decision
 * 0149). It is built by the steps the host takes, so the two cannot drift apart: the definition's
 * card, completed by the server's `servedCard` with the extensions the definition enables (mounted
 * here on a memory store, so settings an extension refuses fail as they would at start) and the
 * host's push setting, then written by the server's `servedCardJson`: decorated as served, and
 * signed with the config's keys.
 */
import type { AgentDefinition } from '../card/index.js';
import type { ProtocolVersion } from '../protocol/index.js';
import { servedCard, servedCardJson } from '../server/internal.js';
import { createMemoryTaskStore } from '../store/index.js';
import { cardSigner, cardsFor } from './agent-build.js';
import type { HostConfig } from './host-config.js';
import { mountExtensions, type HostExtension } from './host-extensions.js';
import { importSigningKeys } from './signing-keys.js';

/** What `servedAgentCardJson` needs besides the config and the agent. */
export interface ServedCardOptions {
  /** The agent's base URL, ending in `/` (the host serves agents at `<url>/agents/<id>/`). */
  baseUrl: string;
  version: ProtocolVersion;
  /** The extensions the host has (`concord serve` passes its built-in ones). */
  extensions?: readonly HostExtension[];
}

/** The public card of `definition` as the host would serve it at `options.baseUrl`. */
export async function servedAgentCardJson(
  config: HostConfig,
  definition: AgentDefinition,
  options: ServedCardOptions,
): Promise<Record<string, unknown>> {
  const store = createMemoryTaskStore();
  try {
    const extensions = await mountExtensions(definition, options.extensions ?? [], {
      store,
      outbound: config.outbound,
    });
    const { card } = cardsFor(definition, config, config.security !== undefined);
    const served = servedCard(card, {
      baseUrl: options.baseUrl,
      extensions,
      push: config.push?.enabled !== false,
    });
    const signer = cardSigner(await importSigningKeys(config.signing));
    return await servedCardJson(served, options.version, { signer });
  } finally {
    await store.close();
  }
}

/**
 * AUMP for agents of the Concord host (decision 0054): an agent definition enables it with
 *
 *     extensions: {
 *       aump: {
 *         mandates: ['./mandates/seller.json'],   // held: the agent acts under these
 *         known: ['./mandates/buyer.json'],       // counterparties': their references are hash-checked
 *         receivedEvent: 'offer_received',        // evidence of each accepted AUMP message
 *         revoked: ['aump_mnd_...'],              // mandate ids revoked by their issuers
 *       },
 *     }
 *
 * Paths are relative to the definition file. Every mandate is loaded and schema-checked when the
 * host starts; evidence goes to the agent's own task store (SQLite by default), and the agent's
 * sends by URL follow the host's `outbound` network policy. The object returned here has the shape
 * of the host's `HostExtension` (concord/host), which `concord serve` passes to the host.
 */
import type { AgentDefinition } from '../../card/index.js';
import { ExtensionConfigError, type ServerExtension } from '../../server/index.js';
import type { TaskStore } from '../../store/index.js';
import { loadMandateFile, MandateError } from './mandate.js';
import type { Mandate } from './mandate-types.js';
import { createAumpRuntime } from './runtime.js';
import { aumpServerExtension } from './server-extension.js';

/** What the host hands an extension (the shape of concord/host's `HostExtensionContext`). */
export interface AumpHostAgent {
  readonly definition: Pick<AgentDefinition, 'id' | 'name'>;
  readonly store: TaskStore;
  readonly outbound:
    { allowPrivateNetworks?: boolean; allowedHosts?: string[]; timeoutMs?: number } | undefined;
  resolvePath(path: string): string;
}

/** Options of `aumpHostExtension`. */
export interface AumpHostOptions {
  /** The runtimes' clock (default: the current time); tests fix it. */
  now?: () => Date;
}

/** The AUMP host extension (name `aump`); see the file comment. */
export interface AumpHostExtension {
  readonly name: 'aump';
  mount(config: unknown, agent: AumpHostAgent): Promise<ServerExtension>;
}

const KEYS = new Set(['mandates', 'known', 'revoked', 'receivedEvent']);
const DEFAULT_RECEIVED = 'message_received';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(config: Record<string, unknown>, key: string, required: boolean): string[] {
  const value = config[key];
  if (value === undefined && !required) return [];
  if (!Array.isArray(value) || (required && value.length === 0)) {
    throw new ExtensionConfigError(
      `/${key}`,
      required ? 'must list at least one mandate file' : 'must be a list',
    );
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item === '')
      throw new ExtensionConfigError(`/${key}/${i}`, 'must be a non-empty string');
  });
  return value as string[];
}

async function loadAll(paths: string[], key: string, agent: AumpHostAgent): Promise<Mandate[]> {
  const out: Mandate[] = [];
  for (const [i, path] of paths.entries()) {
    try {
      out.push(await loadMandateFile(agent.resolvePath(path)));
    } catch (error) {
      if (error instanceof MandateError) throw new ExtensionConfigError(`/${key}/${i}`, error.message);
      throw error;
    }
  }
  return out;
}

/** Checks the settings, loads the mandates and builds the agent's runtime and server extension. */
async function mount(
  config: unknown,
  agent: AumpHostAgent,
  options: AumpHostOptions,
): Promise<ServerExtension> {
  if (!isObject(config)) throw new ExtensionConfigError('', 'must be an object');
  for (const key of Object.keys(config)) {
    if (!KEYS.has(key))
      throw new ExtensionConfigError(`/${key}`, `unknown setting (known: ${[...KEYS].join(', ')})`);
  }
  const held = await loadAll(stringList(config, 'mandates', true), 'mandates', agent);
  const known = await loadAll(stringList(config, 'known', false), 'known', agent);
  const revoked = stringList(config, 'revoked', false);
  const received = config.receivedEvent;
  if (received !== undefined && (typeof received !== 'string' || received === '')) {
    throw new ExtensionConfigError('/receivedEvent', 'must be a non-empty string');
  }
  const own = held[0]!;
  const required = own.evidence.events_required;
  const receivedEvent = (received as string | undefined) ?? DEFAULT_RECEIVED;
  if (required.length > 0 && !required.includes(receivedEvent)) {
    throw new ExtensionConfigError(
      '/receivedEvent',
      `${received === undefined ? `the default "${DEFAULT_RECEIVED}"` : `"${receivedEvent}"`} is not an evidence event mandate ${own.id} requires; choose one of: ${required.join(', ')}`,
    );
  }
  const evidence = agent.store.evidence;
  if (evidence === undefined) {
    throw new ExtensionConfigError('', `agent "${agent.definition.id}": its task store keeps no evidence`);
  }
  const outbound = agent.outbound ?? {};
  const runtime = createAumpRuntime({
    mandates: held,
    known,
    revoked,
    evidence,
    actor: { role: 'agent', id: agent.definition.id },
    ...(options.now === undefined ? {} : { now: options.now }),
    connect: {
      ...(outbound.allowPrivateNetworks === undefined
        ? {}
        : { allowPrivateNetworks: outbound.allowPrivateNetworks }),
      ...(outbound.allowedHosts === undefined ? {} : { allowedHosts: outbound.allowedHosts }),
      ...(outbound.timeoutMs === undefined ? {} : { timeoutMs: outbound.timeoutMs }),
    },
  });
  return aumpServerExtension(runtime, {
    mandateId: own.id,
    receivedEvent,
    issuerName: agent.definition.name,
  });
}

/** The AUMP extension for the agent host; see the file comment. */
export function aumpHostExtension(options: AumpHostOptions = {}): AumpHostExtension {
  return { name: 'aump', mount: (config, agent) => mount(config, agent, options) };
}

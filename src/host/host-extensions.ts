/**
 * A2A extensions in the agent host (decision 0054): an agent definition enables an extension by
 * name with its settings,
 *
 *     extensions: { aump: { mandates: ['./mandates/buyer.json'] } }
 *
 * and the host mounts it from a `HostExtension` it was given (`startHost(dir, { extensions })`;
 * `concord serve` passes the built-in ones). The host knows no extension itself: each turns its
 * settings into a `ServerExtension` for that agent, with the agent's store (for evidence and
 * the like) and the host's outbound network policy at hand. A name no given extension has, or
 * settings an extension refuses, fail the start with the definition's file, line and field.
 */
import { resolve, dirname } from 'node:path';
import type { AgentDefinition } from '../card/index.js';
import { ExtensionConfigError, type ServerExtension } from '../server/index.js';
import type { TaskStore } from '../store/index.js';
import { DefinitionError } from './definitions/index.js';
import type { OutboundConfig } from './host-config.js';

/** What an extension gets to build itself for one agent. */
export interface HostExtensionContext {
  readonly definition: AgentDefinition;
  /** The agent's task store; durable stores also keep `approvals` and `evidence`. */
  readonly store: TaskStore;
  /** The host's outbound settings, for extensions that call other agents (SSRF policy). */
  readonly outbound: OutboundConfig | undefined;
  /** A path written in the definition, resolved against the definition's file. */
  resolvePath(path: string): string;
}

/** An extension the host can enable per agent; see the file comment. */
export interface HostExtension {
  /** The key agents use under `extensions` in their definition. */
  readonly name: string;
  /**
   * Builds the extension for one agent from its settings (`config`, as written: validate it). Throw
   * `ExtensionConfigError` to point at the wrong setting; any other error fails the start as is.
   */
  mount(config: unknown, agent: HostExtensionContext): ServerExtension | Promise<ServerExtension>;
}

/** Builds the extensions `definition` enables, in the order it lists them. */
export async function mountExtensions(
  definition: AgentDefinition,
  available: readonly HostExtension[],
  context: { store: TaskStore; outbound: OutboundConfig | undefined },
): Promise<ServerExtension[]> {
  const wanted = Object.entries(definition.extensions ?? {});
  if (wanted.length === 0) return [];
  const { file, line, pointer = '' } = definition.source;
  const fail = (field: string, message: string): DefinitionError =>
    new DefinitionError([{ file, ...(line === undefined ? {} : { line }), field, message }]);
  const mounted: ServerExtension[] = [];
  for (const [name, config] of wanted) {
    const field = `${pointer}/extensions/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const extension = available.find((each) => each.name === name);
    if (extension === undefined) {
      const known = available.map((each) => each.name).join(', ') || 'none';
      throw fail(
        field,
        `agent "${definition.id}" enables extension "${name}", which this host does not have (it has: ${known})`,
      );
    }
    try {
      mounted.push(
        await extension.mount(config, {
          definition,
          store: context.store,
          outbound: context.outbound,
          resolvePath: (path) => resolve(dirname(file), path),
        }),
      );
    } catch (error) {
      if (error instanceof ExtensionConfigError) throw fail(`${field}${error.pointer}`, error.message);
      throw error;
    }
  }
  return mounted;
}

/**
 * Loads an agent module for `concord serve`: a directory holding `agent.mjs` / `agent.js`, or a
 * module file, exporting `agentCard` and `executor` (named or on the default export), or a
 * `createAgent(context)` factory for agents that need the serve settings first (where the data
 * lives, the environment) and bring server options of their own (an extension's hooks). Problems
 * are reported with the file and the missing export, before anything starts listening.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TaskStoreKind } from '../../host/internal.js';
import type { A2AServerOptions, AgentCardInput, AgentExecutor } from '../../server/index.js';
import { UsageError } from '../exit-codes.js';

/** What `concord serve` tells a `createAgent` factory. */
export interface AgentModuleContext {
  /** The `--data-dir` directory (created), where a durable agent keeps its own data. */
  dataDir: string;
  /** `--store`: `memory` asks the agent to keep nothing on disk either. */
  store: TaskStoreKind;
  env: NodeJS.ProcessEnv;
  /** Prints a line to the serve output (e.g. a development credential). */
  log: (line: string) => void;
}

/** A loaded agent. */
export interface LoadedAgent {
  file: string;
  agentCard: AgentCardInput;
  executor: AgentExecutor;
  /** Server options the agent brings (a factory's); the CLI's store and onError win. */
  serverOptions?: Partial<A2AServerOptions>;
  /** Releases what the agent holds (its own database), after the server stopped. */
  close?: () => Promise<void> | void;
  /** A request worth trying, for the serve banner's curl (export `exampleRequest`). */
  exampleRequest?: ExampleRequest;
}

/**
 * A first request to show users (`exampleRequest` export): the message parts and configuration
 * of a 1.0 `SendMessage`, in ProtoJSON. The banner adds the messageId and the role.
 */
export interface ExampleRequest {
  parts: unknown[];
  configuration?: Record<string, unknown>;
}

type AgentFactory = (context: AgentModuleContext) => Promise<unknown> | unknown;

const CANDIDATES = ['agent.mjs', 'agent.js'];

/** True when `target` is a code agent module (or a directory holding one), not agent definitions. */
export function isAgentModule(target: string): boolean {
  const full = resolve(target);
  if (!existsSync(full)) return false;
  if (statSync(full).isFile()) return /\.(mjs|js|cjs)$/.test(full);
  return CANDIDATES.some((name) => existsSync(join(full, name)));
}

/** Finds the module file for a path given on the command line. */
export function resolveAgentFile(target: string): string {
  const full = resolve(target);
  if (!existsSync(full)) throw new UsageError(`${target}: no such file or directory`);
  if (statSync(full).isFile()) return full;
  for (const name of CANDIDATES) {
    const file = join(full, name);
    if (existsSync(file)) return file;
  }
  throw new UsageError(`${target}: no agent module found (looked for ${CANDIDATES.join(', ')})`);
}

/** Imports and checks the agent module; a factory is called with `context`. */
export async function loadAgent(target: string, context?: AgentModuleContext): Promise<LoadedAgent> {
  const file = resolveAgentFile(target);
  let mod = (await import(pathToFileURL(file).href)) as Record<string, unknown> & {
    default?: Record<string, unknown>;
  };
  const factory = (mod.createAgent ?? mod.default?.createAgent) as AgentFactory | undefined;
  if (factory !== undefined) {
    if (typeof factory !== 'function') throw new Error(`${file}: export createAgent must be a function`);
    if (context === undefined) throw new Error(`${file}: createAgent needs the serve settings`);
    const made = await factory(context);
    if (typeof made !== 'object' || made === null) {
      throw new Error(`${file}: createAgent must return { agentCard, executor, serverOptions?, close? }`);
    }
    mod = made as Record<string, unknown>;
  }
  const agentCard = (mod.agentCard ?? mod.default?.agentCard) as AgentCardInput | undefined;
  const executor = (mod.executor ?? mod.default?.executor) as AgentExecutor | undefined;
  if (agentCard === undefined || typeof agentCard !== 'object')
    throw new Error(`${file}: exports no agentCard object`);
  if (executor === undefined || typeof executor.execute !== 'function') {
    throw new Error(`${file}: exports no executor with an execute(context, updater) method`);
  }
  const serverOptions = mod.serverOptions as Partial<A2AServerOptions> | undefined;
  const close = mod.close as LoadedAgent['close'] | undefined;
  const example = (mod.exampleRequest ?? mod.default?.exampleRequest) as ExampleRequest | undefined;
  if (example !== undefined && (typeof example !== 'object' || !Array.isArray(example.parts))) {
    throw new Error(`${file}: exampleRequest must be { parts: [...], configuration?: {...} }`);
  }
  return {
    file,
    agentCard,
    executor,
    ...(serverOptions === undefined ? {} : { serverOptions }),
    ...(typeof close === 'function' ? { close } : {}),
    ...(example === undefined ? {} : { exampleRequest: example }),
  };
}

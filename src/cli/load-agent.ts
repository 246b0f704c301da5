/**
 * Loads an agent module for `concord serve`: a directory holding `agent.mjs` / `agent.js`, or a
 * module file, exporting `agentCard` and `executor` (named or on the default export). Problems are
 * reported with the file and the missing export, before anything starts listening.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentCardInput, AgentExecutor } from '../server/index.js';

/** A loaded agent. */
export interface LoadedAgent {
  file: string;
  agentCard: AgentCardInput;
  executor: AgentExecutor;
}

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
  if (!existsSync(full)) throw new Error(`${target}: no such file or directory`);
  if (statSync(full).isFile()) return full;
  for (const name of CANDIDATES) {
    const file = join(full, name);
    if (existsSync(file)) return file;
  }
  throw new Error(`${target}: no agent module found (looked for ${CANDIDATES.join(', ')})`);
}

/** Imports and checks the agent module. */
export async function loadAgent(target: string): Promise<LoadedAgent> {
  const file = resolveAgentFile(target);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown> & {
    default?: Record<string, unknown>;
  };
  const agentCard = (mod.agentCard ?? mod.default?.agentCard) as AgentCardInput | undefined;
  const executor = (mod.executor ?? mod.default?.executor) as AgentExecutor | undefined;
  if (agentCard === undefined || typeof agentCard !== 'object')
    throw new Error(`${file}: exports no agentCard object`);
  if (executor === undefined || typeof executor.execute !== 'function') {
    throw new Error(`${file}: exports no executor with an execute(context, updater) method`);
  }
  return { file, agentCard, executor };
}

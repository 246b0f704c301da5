/**
 * The parts of a server that run executors: the TaskRunner, the server's part in its cluster when
 * it has one (decision 0110), and otherwise the recovery of tasks an earlier process of a durable
 * store left running (decision 0119). Built once per RequestHandler, stopped with it.
 */
import type { ReplyStore, TaskStore } from '../../store/internal.js';
import type { AgentExecutor, AgentSender } from '../agent-executor.js';
import type { Cluster } from '../cluster/cluster.js';
import { ClusterNode } from '../cluster/cluster-node.js';
import type { EventHub } from './event-hub.js';
import type { OrphanPolicy } from './orphan-settling.js';
import { RestartRecovery } from './restart-recovery.js';
import { extensionServices, type ServerExtension } from '../server-extension.js';
import { TaskRunner } from './task-runner.js';

/** What `setUpExecution` needs. */
export interface ExecutionSetupOptions {
  store: TaskStore;
  /** Where direct Message replies to keyed sends are kept (decision 0147). */
  replies: ReplyStore;
  hub: EventHub;
  executor: AgentExecutor;
  agents: AgentSender | undefined;
  extensions: readonly ServerExtension[];
  onError: (error: unknown, where: string) => void;
  cluster: Cluster | undefined;
  clusterKey: string | undefined;
  /** Unfinished tasks of an earlier process, single server only (the cluster has its own setting). */
  orphans: OrphanPolicy | undefined;
  /** When to start settling them (default: at once). */
  recoverAfter: Promise<unknown> | undefined;
  /** The card's name, for the agent's `invoke_agent` span (decision 0157). */
  agentName?: (() => string) | undefined;
}

/** The runner and what keeps it company. */
export interface ExecutionSetup {
  runner: TaskRunner;
  node: ClusterNode | undefined;
  close(): void;
}

/** Builds the runner, and joins the cluster or starts the restart recovery. */
export function setUpExecution(options: ExecutionSetupOptions): ExecutionSetup {
  const { store, replies, hub, onError, cluster } = options;
  const node =
    cluster === undefined
      ? undefined
      : new ClusterNode({ cluster, agent: options.clusterKey ?? '', store, hub, onError });
  const agentName = options.agentName;
  const runner = new TaskRunner(
    node === undefined
      ? { store, hub, onError, replies, agentName }
      : { store, hub, onError, replies, agentName, cluster: node },
    options.executor,
    options.agents,
    extensionServices(options.extensions),
  );
  node?.attach(runner);
  const claim = store.claimUnfinished?.bind(store);
  const recovery =
    node !== undefined || claim === undefined
      ? undefined
      : new RestartRecovery({
          store,
          claim,
          runner,
          policy: options.orphans ?? 'fail',
          onError,
          after: options.recoverAfter,
        });
  return {
    runner,
    node,
    close() {
      node?.close();
      recovery?.close();
    },
  };
}

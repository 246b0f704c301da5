/**
 * The Redis ClusterBus (decision 0116), for deployments that already run Redis or want the
 * announcements off the database: messages by PUBLISH on one channel per key prefix, read on a
 * dedicated subscriber connection (node-redis reconnects and resubscribes it; the bus then reports
 * `reconnected`, since messages sent meanwhile were lost); heartbeats are keys with a PX expiry
 * (Redis's clock); the run registry is one hash per agent, changed by scripts where a
 * compare-and-set is needed.
 */
import { createClient, type RedisClientType } from '@redis/client';
import {
  deliverPayload,
  type BusListener,
  type ClusterBus,
  type ClusterMessage,
  type RunRecord,
  type Runner,
} from '../../server/internal.js';

/** Options of `createRedisBus`. */
export interface RedisBusOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /**
   * Prepended to every key and to the channel (default `concord:`): instances of one cluster share
   * it, and different clusters on one Redis must not.
   */
  keyPrefix?: string;
  /** `CLIENT SETNAME` of the bus's connections, as `CLIENT LIST` shows them (default `concord-cluster`). */
  clientName?: string;
}

interface StoredRun {
  instanceId: string;
  tenant: string;
  owner: string;
}

// Removes a task's run only while the named instance holds it.
const REMOVE_IF_HELD = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and cjson.decode(v).instanceId == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`;

// Moves a task's run to another instance only while the named one holds it.
const CLAIM_IF_HELD = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local run = cjson.decode(v)
if run.instanceId ~= ARGV[2] then return 0 end
run.instanceId = ARGV[3]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(run))
return 1`;

class RedisBus implements ClusterBus {
  private readonly client: RedisClientType;
  private subscriber: RedisClientType | undefined;
  private readonly prefix: string;
  private readonly channel: string;
  private connecting: Promise<unknown> | undefined;
  private closed = false;
  private everConnected = false;

  constructor(options: RedisBusOptions) {
    this.prefix = options.keyPrefix ?? 'concord:';
    this.channel = `${this.prefix}cluster`;
    this.client = createClient({
      url: options.url,
      name: options.clientName ?? 'concord-cluster',
      socket: {
        // A server that cannot be reached at start is an error to report (the cluster is not
        // ready); once connected, a lost connection is retried for ever, backing off to 5 s.
        reconnectStrategy: (retries: number, cause: Error) =>
          this.everConnected ? Math.min(50 * 2 ** retries, 5_000) : retries >= 2 ? cause : 200,
      },
    }) as RedisClientType;
    // Errors are reported by the commands that fail; the client reconnects by itself.
    this.client.on('error', () => undefined);
  }

  private connected(): Promise<unknown> {
    this.connecting ??= this.client.connect().then(
      () => {
        this.everConnected = true;
      },
      (error: unknown) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }

  listening(): boolean {
    return !this.closed && this.subscriber?.isReady === true;
  }

  private instanceKey(instanceId: string): string {
    return `${this.prefix}instance:${instanceId}`;
  }

  private runsKey(agent: string): string {
    return `${this.prefix}runs:${agent}`;
  }

  async open(listener: BusListener): Promise<void> {
    await this.connected();
    const subscriber = this.client.duplicate();
    let readies = 0;
    subscriber.on('error', (error: unknown) => listener.error(error, 'cluster bus subscriber connection'));
    subscriber.on('ready', () => {
      // The first 'ready' is the connection itself; later ones follow a reconnect (resubscribed).
      if (++readies > 1 && !this.closed) setImmediate(() => listener.reconnected());
    });
    await subscriber.connect();
    await subscriber.subscribe(this.channel, (payload: string) => deliverPayload(payload, listener));
    this.subscriber = subscriber;
  }

  async publish(message: ClusterMessage): Promise<void> {
    await this.connected();
    await this.client.publish(this.channel, JSON.stringify(message));
  }

  async beat(instanceId: string, ttlMs: number): Promise<void> {
    await this.connected();
    await this.client.set(this.instanceKey(instanceId), '1', {
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    });
  }

  async leave(instanceId: string): Promise<void> {
    await this.connected();
    await this.client.del(this.instanceKey(instanceId));
  }

  async recordRun(run: RunRecord): Promise<void> {
    await this.connected();
    const stored: StoredRun = { instanceId: run.instanceId, tenant: run.tenant, owner: run.owner };
    await this.client.hSet(this.runsKey(run.agent), run.taskId, JSON.stringify(stored));
  }

  async removeRun(agent: string, taskId: string, instanceId: string): Promise<void> {
    await this.connected();
    await this.client.eval(REMOVE_IF_HELD, { keys: [this.runsKey(agent)], arguments: [taskId, instanceId] });
  }

  async runnerOf(agent: string, taskId: string): Promise<Runner | undefined> {
    await this.connected();
    const value = await this.client.hGet(this.runsKey(agent), taskId);
    if (value === null || value === undefined) return undefined;
    const run = JSON.parse(String(value)) as StoredRun;
    const alive = (await this.client.exists(this.instanceKey(run.instanceId))) === 1;
    return { instanceId: run.instanceId, alive };
  }

  async orphanedRuns(agent: string): Promise<RunRecord[]> {
    await this.connected();
    const all = (await this.client.hGetAll(this.runsKey(agent))) as Record<string, string>;
    const runs = Object.entries(all).map(([taskId, value]) => ({
      taskId,
      ...(JSON.parse(value) as StoredRun),
    }));
    const instances = [...new Set(runs.map((run) => run.instanceId))];
    // Sent together: node-redis pipelines commands issued in the same tick.
    const alive = await Promise.all(instances.map((id) => this.client.exists(this.instanceKey(id))));
    const dead = new Set(instances.filter((_, i) => alive[i] !== 1));
    return runs
      .filter((run) => dead.has(run.instanceId))
      .slice(0, 500)
      .map((run) => ({
        agent,
        taskId: run.taskId,
        instanceId: run.instanceId,
        tenant: run.tenant,
        owner: run.owner,
      }));
  }

  async claimRun(run: RunRecord, instanceId: string): Promise<boolean> {
    await this.connected();
    const result = await this.client.eval(CLAIM_IF_HELD, {
      keys: [this.runsKey(run.agent)],
      arguments: [run.taskId, run.instanceId, instanceId],
    });
    return result === 1;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber !== undefined) await subscriber.close().catch(() => subscriber.destroy());
    if (this.connecting !== undefined) await this.client.close().catch(() => this.client.destroy());
  }
}

/** A ClusterBus over Redis (see the file comment). */
export function createRedisBus(options: RedisBusOptions): ClusterBus {
  return new RedisBus(options);
}

/**
 * The two servers of the interop matrix, each with a webhook receiver: `concord serve` as a user
 * runs it (the built CLI as a child process, default SQLite store in a temp data dir, gRPC on,
 * webhooks allowed to reach loopback so the receiver can get deliveries) serving the fixture
 * agent; and the official SDK's own server (helpers/sdk-server.ts), the SDK-to-SDK baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startConcord } from '../../cli/cli-process.js';
import { SDK_TOKEN, startSdkServer } from '../helpers/sdk-server.js';
import type { ServerUnderTest } from './driver.js';
import { startWebhook } from './webhook.js';

/** A server under test and how to stop it. */
export interface RunningServer extends ServerUnderTest {
  /** The `host:port` of the gRPC listener. */
  grpcTarget: string;
  close(): Promise<void>;
}

/** The fixture agent's bearer token (test/interop/fixtures/agent/agent.mjs). */
const CONCORD_TOKEN = 'interop-token';

export async function startConcordServe(): Promise<RunningServer> {
  const webhook = await startWebhook();
  const dataDir = mkdtempSync(join(tmpdir(), 'concord-interop-'));
  const cli = startConcord([
    'serve',
    join(ROOT, 'test/interop/fixtures/agent'),
    '--port',
    '0',
    '--grpc-port',
    '0',
    '--data-dir',
    dataDir,
    // The SSRF guard refuses loopback webhooks unless the operator allows them (decision 0086).
    '--push-allow',
    '127.0.0.1',
  ]);
  try {
    const stdout = await cli.until((s) => s.includes('agent card:'));
    const url = /serving "[^"]*" at (http:\/\/\S+\/)/.exec(stdout)![1]!;
    const grpcTarget = /gRPC: (\S+)/.exec(stdout)![1]!;
    return {
      url,
      grpcTarget,
      token: CONCORD_TOKEN,
      name: 'Interop Echo',
      extendedName: 'Interop Echo (extended)',
      webhookUrl: webhook.url,
      waitForPush: (taskId, state) => webhook.waitFor(taskId, state),
      async close() {
        cli.child.kill('SIGTERM');
        await cli.exited;
        await webhook.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    cli.child.kill('SIGKILL');
    await webhook.close();
    throw error;
  }
}

/** The SDK server; `protoJsonCard` for the CLI, whose `card` lints (helpers/sdk-server.ts). */
export async function startSdk(options: { protoJsonCard?: boolean } = {}): Promise<RunningServer> {
  const webhook = await startWebhook();
  const sdk = await startSdkServer({ grpc: true, full: true, ...options });
  return {
    url: sdk.url,
    grpcTarget: sdk.grpcTarget!,
    token: SDK_TOKEN,
    name: 'SDK Echo',
    extendedName: 'SDK Echo (extended)',
    webhookUrl: webhook.url,
    waitForPush: (taskId, state) => webhook.waitFor(taskId, state),
    async close() {
      await sdk.close();
      await webhook.close();
    },
  };
}

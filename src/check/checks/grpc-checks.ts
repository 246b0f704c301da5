/**
 * The gRPC interfaces a card declares, checked through the public client's gRPC transport
 * (decision 0073): the interface must answer a send, and (rule 49, A2A 1.0) an A2A error must
 * arrive as the error table's gRPC status with a google.rpc.ErrorInfo in the status details.
 * The raw-wire rules of the HTTP bindings (envelopes, headers, SSE framing) have no gRPC
 * counterpart here; 0.3 defines no gRPC errors, so its interfaces are only reached.
 */
import { A2AClient, A2AClientError, bearer } from '../../client/index.js';
import {
  A2A_ERROR_DOMAIN,
  type AgentCard,
  type Part,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import type { CheckRecorder } from '../check-report.js';

/** What the check needs to reach one gRPC interface. */
export interface GrpcCheckSettings {
  /** The part of the message sent (the run's text or data). */
  message: Part;
  timeoutMs: number;
  token?: string;
  allowPrivateNetworks: boolean;
  allowedHosts?: readonly string[];
}

// gRPC NOT_FOUND: TaskNotFoundError's row of the error table (A2A 1.0 §5.4).
const NOT_FOUND = 5;

/** Checks one gRPC interface of the card; failures are recorded against rule 49. */
export async function checkGrpcInterface(
  recorder: CheckRecorder,
  card: AgentCard,
  url: string,
  version: ProtocolVersion,
  settings: GrpcCheckSettings,
): Promise<void> {
  const where = `GRPC ${version} ${url}`;
  const client = new A2AClient({
    card,
    transport: { url, protocolBinding: 'GRPC', protocolVersion: version },
    allowPrivateNetworks: settings.allowPrivateNetworks,
    ...(settings.allowedHosts === undefined ? {} : { allowedHosts: settings.allowedHosts }),
    timeoutMs: settings.timeoutMs,
    retry: { retries: 0 },
    ...(settings.token === undefined ? {} : { auth: bearer(settings.token) }),
  });
  try {
    try {
      await client.sendMessage({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ ...settings.message }] },
      });
    } catch (error) {
      recorder.fail(49, {
        where,
        expected: 'the gRPC interface the card declares answers SendMessage',
        sent: `SendMessage ${JSON.stringify(settings.message)}`,
        received: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    if (version !== '1.0') {
      recorder.skip(49, `${where}: A2A 0.3 defines no gRPC error details; the interface answered a send`);
      return;
    }
    const id = `concord-check-missing-${crypto.randomUUID()}`;
    const error = await client.getTask({ id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const body = error instanceof A2AClientError ? (error.body as { domain?: string }) : undefined;
    recorder.expect(
      49,
      error instanceof A2AClientError &&
        error.grpcStatus === NOT_FOUND &&
        error.reason === 'TASK_NOT_FOUND' &&
        body?.domain === A2A_ERROR_DOMAIN,
      () => ({
        where,
        expected: `GetTask of an unknown id fails with gRPC NOT_FOUND (5) and an ErrorInfo {reason: TASK_NOT_FOUND, domain: ${A2A_ERROR_DOMAIN}}`,
        sent: `GetTask {id: "${id}"}`,
        received:
          error instanceof A2AClientError
            ? `gRPC status ${String(error.grpcStatus)}, reason ${String(error.reason)}, domain ${String(body?.domain)}: ${error.message}`
            : error === undefined
              ? 'a task'
              : String(error),
      }),
    );
  } finally {
    client.close();
  }
}

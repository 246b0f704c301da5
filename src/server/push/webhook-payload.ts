/**
 * What a webhook receives, in the shape the config's protocol version expects (A2A 1.0
 * §4.3.3; decision 0086):
 *
 * - 1.0: one POST per task event, the body a `StreamResponse` (`{task}`, `{statusUpdate}`,
 *   `{artifactUpdate}`) in ProtoJSON, `Content-Type: application/a2a+json` (A2A 1.0 §4.3.3).
 * - 0.3: the spec leaves the body open and its example sends the Task; one POST per committed
 *   change, the body the Task as that change left it (0.3 JSON shape, with `kind`),
 *   `Content-Type: application/json`.
 *
 * Every delivery names its event: the SSE event id of the same event (`X-A2A-Event-Id`, the
 * task's version for a 0.3 Task), so receivers can drop the duplicates at-least-once delivery
 * may bring (docs/decisions/0087-push-outbox.md).
 */
import { v0_3JsonRpcCodec, v1_0Codec } from '../../protocol/internal.js';
import type { PushOutboxEntry } from '../../store/index.js';

/** One POST to make. */
export interface WebhookDelivery {
  /** The event's sequence number (0.3: the task version after the change). */
  eventId: number;
  body: string;
  contentType: string;
}

/** The deliveries still owed for an outbox entry, in order, for a config of `protocolVersion`. */
export function deliveriesOf(entry: PushOutboxEntry, protocolVersion: string): WebhookDelivery[] {
  if (protocolVersion === '0.3') {
    if (entry.deliveredSeq >= entry.lastSeq) return [];
    return [
      {
        eventId: entry.lastSeq,
        body: JSON.stringify(v0_3JsonRpcCodec.encodeTask(entry.task)),
        contentType: 'application/json',
      },
    ];
  }
  const out: WebhookDelivery[] = [];
  for (let i = 0; i < entry.events.length; i++) {
    const seq = entry.firstSeq + i;
    if (seq <= entry.deliveredSeq) continue;
    out.push({
      eventId: seq,
      body: JSON.stringify(v1_0Codec.encodeStreamResponse(entry.events[i]!)),
      contentType: 'application/a2a+json',
    });
  }
  return out;
}

/**
 * The event id of the delivery an entry owes next once events up to `delivered` went out: the next
 * event (1.0), or the entry's change as a whole (0.3). Its tries are what the entry counts
 * (decision 0145).
 */
export function nextOwedSeq(entry: PushOutboxEntry, delivered: number, protocolVersion: string): number {
  return protocolVersion === '0.3' ? entry.lastSeq : delivered + 1;
}

/**
 * The A2A 1.0 wire codec: ProtoJSON of the `lf.a2a.v1` proto, used by every 1.0 binding (A2A
 * 1.0 §5.5). The canonical model is 1.0-shaped, so encoding only drops unknown and default members;
 * decoding is strict and names the JSON Pointer of the first bad field (A2A 1.0 §5.7).
 */
import type { WireCodec } from '../codec.js';
import { decodeAgentCard, encodeAgentCard } from './agent-card.js';
import { decodeMessage, decodePart, encodeMessage, encodePart } from './parts-and-messages.js';
import {
  decodeListTaskPushNotificationConfigsRequest,
  decodeTaskPushNotificationConfig,
  decodeTaskPushNotificationConfigRef,
  encodeListTaskPushNotificationConfigsRequest,
  encodeTaskPushNotificationConfig,
  encodeTaskPushNotificationConfigRef,
} from './push-config.js';
import {
  decodeCancelTaskRequest,
  decodeGetTaskRequest,
  decodeListTasksRequest,
  decodeSendMessageRequest,
  decodeSubscribeToTaskRequest,
  encodeCancelTaskRequest,
  encodeGetTaskRequest,
  encodeListTasksRequest,
  encodeSendMessageRequest,
  encodeSubscribeToTaskRequest,
} from './requests.js';
import {
  decodeListTaskPushNotificationConfigsResponse,
  decodeListTasksResponse,
  decodeSendMessageResponse,
  decodeStreamResponse,
  encodeListTaskPushNotificationConfigsResponse,
  encodeListTasksResponse,
  encodeSendMessageResponse,
  encodeStreamResponse,
} from './responses.js';
import { decodeArtifact, decodeTask, encodeArtifact, encodeTask } from './task.js';

/** The A2A 1.0 ProtoJSON codec (dialect `1.0`). */
export const v1_0Codec: WireCodec = Object.freeze({
  dialect: '1.0',
  version: '1.0',
  decodeSendMessageRequest,
  encodeSendMessageRequest,
  decodeGetTaskRequest,
  encodeGetTaskRequest,
  decodeListTasksRequest,
  encodeListTasksRequest,
  decodeCancelTaskRequest,
  encodeCancelTaskRequest,
  decodeSubscribeToTaskRequest,
  encodeSubscribeToTaskRequest,
  decodeTaskPushNotificationConfig,
  encodeTaskPushNotificationConfig,
  decodeTaskPushNotificationConfigRef,
  encodeTaskPushNotificationConfigRef,
  decodeListTaskPushNotificationConfigsRequest,
  encodeListTaskPushNotificationConfigsRequest,
  encodeTask,
  decodeTask,
  encodeMessage,
  encodeArtifact,
  encodePart,
  decodePart,
  decodeArtifact,
  decodeMessage,
  encodeSendMessageResponse,
  decodeSendMessageResponse,
  encodeStreamResponse,
  decodeStreamResponse,
  encodeListTasksResponse,
  decodeListTasksResponse,
  encodeListTaskPushNotificationConfigsResponse,
  decodeListTaskPushNotificationConfigsResponse,
  encodeAgentCard,
  decodeAgentCard,
});

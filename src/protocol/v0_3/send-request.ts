/**
 * Send parameters on both 0.3 wires (A2A 0.3 §7.1.1): JSON-RPC `MessageSendParams {message,
 * configuration?:{acceptedOutputModes?, historyLength?, pushNotificationConfig?, blocking?},
 * metadata?}` and the REST proto `SendMessageRequest`, whose `request` field has json_name
 * `message` and whose configuration names the push member `pushNotification`.
 *
 * `blocking` maps to the canonical `returnImmediately` (= !blocking). On JSON-RPC an absent
 * `blocking` means blocking (A2A 0.3 §7.1.1 gives no default; the reference SDK's reading). On REST it is a proto3
 * `bool`, whose absence IS `false`: a configuration without `blocking` therefore asks for a
 * non-blocking send, as a2a-python 0.3 reads it; no configuration at all still means blocking.
 * Encoders always write `blocking` explicitly so neither reading matters to our peers.
 */
import {
  optionalBoolean,
  optionalObject,
  optionalStringArray,
  pointer,
  readObject,
  altKey,
  type JsonObject,
} from '../decode-kit.js';
import { invalidParams } from '../errors.js';
import type { SendMessageConfiguration, SendMessageRequest } from '../model.js';
import type { Dialect } from './dialect.js';
import { decodeMessage, encodeMessage } from './message.js';
import { decodePushConfig, encodePushConfig } from './push-config.js';
import { readHistoryLength } from './wire-scalars.js';

function pushKey(d: Dialect): string {
  return d.proto ? 'pushNotification' : 'pushNotificationConfig';
}

/**
 * Encodes a send configuration. A canonical `historyLength` of 0 ("no history", A2A 1.0) has no 0.3
 * spelling (0.3 reads 0 as unlimited, decision 0005), so it is left out.
 */
function encodeConfiguration(d: Dialect, config: SendMessageConfiguration): JsonObject {
  const out: JsonObject = {};
  if (config.acceptedOutputModes !== undefined) out.acceptedOutputModes = config.acceptedOutputModes;
  if (config.historyLength !== undefined && config.historyLength > 0)
    out.historyLength = config.historyLength;
  if (config.taskPushNotificationConfig !== undefined) {
    out[pushKey(d)] = encodePushConfig(config.taskPushNotificationConfig);
  }
  out.blocking = config.returnImmediately !== true;
  return out;
}

/** Encodes canonical send parameters as MessageSendParams (JSON-RPC) or SendMessageRequest (REST). */
export function encodeSendRequest(d: Dialect, request: SendMessageRequest): JsonObject {
  const out: JsonObject = { message: encodeMessage(d, request.message) };
  if (request.configuration !== undefined) out.configuration = encodeConfiguration(d, request.configuration);
  if (request.metadata !== undefined) out.metadata = request.metadata;
  return out;
}

function decodeConfiguration(d: Dialect, obj: JsonObject, path: string): SendMessageConfiguration {
  const config: SendMessageConfiguration = {};
  const modes = optionalStringArray(obj, 'acceptedOutputModes', path, obj.accepted_output_modes);
  if (modes !== undefined) config.acceptedOutputModes = modes;
  const historyLength = readHistoryLength(obj, 'historyLength', path, d.proto, obj.history_length);
  if (historyLength !== undefined) config.historyLength = historyLength;
  const alt = d.proto ? obj.push_notification : obj.push_notification_config;
  const key = alt === undefined || alt === null ? pushKey(d) : altKey(obj, pushKey(d), path);
  const push = obj[key];
  if (push !== undefined && push !== null) {
    // The inline config belongs to the task the send creates, which has no id yet (A2A 1.0 §3.2.2).
    config.taskPushNotificationConfig = decodePushConfig(d, push, pointer(path, key), '');
  }
  const blocking = optionalBoolean(obj, 'blocking', path);
  if (d.proto ? blocking !== true : blocking === false) config.returnImmediately = true;
  return config;
}

/** Decodes send parameters; `message` is required (REST also accepts the proto name `request`). */
export function decodeSendRequest(d: Dialect, value: unknown, path: string): SendMessageRequest {
  const obj = readObject(value, path);
  let key = 'message';
  const absent = obj.message === undefined || obj.message === null;
  if (absent && d.proto && obj.request !== undefined && obj.request !== null) key = 'request';
  const message = obj[key];
  if (message === undefined || message === null) throw invalidParams(pointer(path, 'message'), 'is required');
  // Only a client sends a message in a request, so an unset ProtoJSON role is the user's (decision 0143).
  const request: SendMessageRequest = {
    message: decodeMessage(d, message, pointer(path, key), 'ROLE_USER'),
  };
  const configuration = optionalObject(obj, 'configuration', path);
  if (configuration !== undefined) {
    request.configuration = decodeConfiguration(d, configuration, pointer(path, 'configuration'));
  }
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) request.metadata = metadata;
  return request;
}

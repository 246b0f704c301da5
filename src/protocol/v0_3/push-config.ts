/**
 * The inner 0.3 `PushNotificationConfig {id?, url, token?, authentication?:{schemes[], credentials?}}`,
 * identical on both 0.3 wires (`types.ts` and the 0.3 proto; A2A 0.3 §6.8-§6.10), mapped to the flat
 * canonical TaskPushNotificationConfig. The task id lives outside it (in `taskId` on JSON-RPC, in
 * the resource `name` on REST, or nowhere for the config inside a send), so callers pass it in.
 *
 * 0.3 lists several acceptable auth `schemes`; 1.0 holds exactly one `scheme` (A2A 1.0
 * `AuthenticationInfo`). Decoding keeps the first: 0.3 §9.2 has the server authenticate with one of
 * them, and the first is the client's natural preference. Encoding sends a one-element list.
 */
import { invalidParams } from '../errors.js';
import {
  altKey,
  optionalObject,
  pointer,
  readObject,
  requiredArray,
  requiredNonEmptyString,
  type JsonObject,
} from '../decode-kit.js';
import type { AuthenticationInfo, TaskPushNotificationConfig } from '../model.js';
import { optionalText, type Dialect } from './dialect.js';
import { readString } from './wire-scalars.js';

/** Encodes the 0.3 PushNotificationConfig part of a canonical config (its task id is not in it). */
export function encodePushConfig(config: TaskPushNotificationConfig): JsonObject {
  const out: JsonObject = {};
  if (config.id !== undefined) out.id = config.id;
  out.url = config.url;
  if (config.token !== undefined) out.token = config.token;
  if (config.authentication !== undefined) {
    const auth: JsonObject = { schemes: [config.authentication.scheme] };
    if (config.authentication.credentials !== undefined) auth.credentials = config.authentication.credentials;
    out.authentication = auth;
  }
  return out;
}

function decodeAuthentication(d: Dialect, obj: JsonObject, path: string): AuthenticationInfo {
  const schemes = requiredArray(obj, 'schemes', path, readString);
  const auth: AuthenticationInfo = { scheme: schemes[0] as string };
  const credentials = optionalText(d, obj, 'credentials', path);
  if (credentials !== undefined) auth.credentials = credentials;
  return auth;
}

/**
 * `authentication: {}` (no schemes, no credentials) is how a ProtoJSON writer that emits default
 * values spells an unset message, as the 0.3 kit's REST push body does: read as absent (decision
 * 0143). A JSON-RPC `{}` still lacks its REQUIRED `schemes` and is refused.
 */
function isEmptyProtoAuth(auth: JsonObject): boolean {
  const schemes = auth.schemes;
  const credentials = auth.credentials;
  return (
    (schemes === undefined || schemes === null || (Array.isArray(schemes) && schemes.length === 0)) &&
    (credentials === undefined || credentials === null || credentials === '')
  );
}

/** Decodes a 0.3 PushNotificationConfig into the canonical config of task `taskId`. */
export function decodePushConfig(
  d: Dialect,
  value: unknown,
  path: string,
  taskId: string,
): TaskPushNotificationConfig {
  const obj = readObject(value, path);
  const config: TaskPushNotificationConfig = { taskId, url: requiredNonEmptyString(obj, 'url', path) };
  const id = optionalText(d, obj, 'id', path);
  if (id !== undefined) config.id = id;
  const token = optionalText(d, obj, 'token', path);
  if (token !== undefined) config.token = token;
  const auth = optionalObject(obj, 'authentication', path);
  if (auth !== undefined && !(d.proto && isEmptyProtoAuth(auth)))
    config.authentication = decodeAuthentication(d, auth, pointer(path, 'authentication'));
  return config;
}

/**
 * The member holding a TaskPushNotificationConfig's inner config, `pushNotificationConfig` or its
 * proto name `push_notification_config` (decision 0136), with its JSON Pointer; "is required"
 * when neither is set.
 */
export function innerConfigMember(obj: JsonObject, path: string): { value: unknown; at: string } {
  const alt = obj.push_notification_config;
  const key =
    alt === undefined || alt === null
      ? 'pushNotificationConfig'
      : altKey(obj, 'pushNotificationConfig', path);
  const at = pointer(path, key);
  if (obj[key] === undefined || obj[key] === null) throw invalidParams(at, 'is required');
  return { value: obj[key], at };
}

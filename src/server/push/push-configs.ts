/**
 * Push-config CRUD behind the request handler (A2A 1.0 §3.1.7-3.1.10, 0.3 §7.5-7.8): validation
 * at creation (the URL through the SSRF guard, the token and credentials fit for an HTTP header,
 * a scheme Concord can honour), the id (1.0: assigned; 0.3: the task id when none is given,
 * decision 0086), the protocol version recorded with the config (it decides the payload shape),
 * secrets sealed before they are stored, and the view clients read back: never the token or the
 * credentials (decision 0088; the A2A guide: "authentication.credentials is omitted").
 */
import {
  A2AError,
  invalidParams,
  type ListTaskPushNotificationConfigsResponse,
  type ProtocolVersion,
  type TaskPushNotificationConfig,
} from '../../protocol/internal.js';
import type { PushConfigRecord, PushStore } from '../../store/index.js';
import { newId } from '../common/ids.js';
import type { SecretBox } from './secret-box.js';
import type { WebhookGuard } from './webhook-guard.js';

/** Configs one task may have; more are refused, so one task cannot fan out without bound. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;
/** Longest token or credentials accepted. */
const MAX_SECRET_LENGTH = 8192;
/** RFC 9110 §11.1: an auth-scheme is a token. */
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Printable ASCII without leading or trailing space: safe as an HTTP header value. */
const HEADER_SAFE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
/** A config id: printable, no `/` (it is a REST path segment), at most 256 characters. */
const CONFIG_ID = /^[\x21-\x2e\x30-\x7e]{1,256}$/;

/** Where the config sits in the request, as a JSON Pointer prefix (`''`, `/pushNotificationConfig`...). */
export interface ConfigLocation {
  /** Pointer of the fields `url`, `token`, `id`, `authentication`. */
  fields: string;
  /** Pointer of the task id field (create only). */
  taskId?: string;
}

/** Which task a config belongs to, and how it was asked for. */
export interface ConfigTarget {
  taskId: string;
  tenant: string;
  version: ProtocolVersion;
}

/** The public view of a stored config: no token, no credentials. */
export function publicConfig(record: PushConfigRecord): TaskPushNotificationConfig {
  const config: TaskPushNotificationConfig = { taskId: record.taskId, id: record.id, url: record.url };
  if (record.tenant !== '') config.tenant = record.tenant;
  if (record.authScheme !== undefined) config.authentication = { scheme: record.authScheme };
  return config;
}

/** Config validation, sealing and reads; see the file comment. */
export class PushConfigs {
  constructor(
    private readonly store: PushStore,
    private readonly guard: WebhookGuard,
    private readonly box: SecretBox,
  ) {}

  /** Checks and seals a config a client gave; the record is ready to store (not stored yet). */
  async prepare(
    config: TaskPushNotificationConfig,
    target: ConfigTarget,
    at: ConfigLocation,
  ): Promise<PushConfigRecord> {
    const field = (name: string): string => `${at.fields}/${name}`;
    const url = await this.guard.checkConfigUrl(config.url, field('url'));
    let id = config.id;
    if (id === undefined || id === '') id = target.version === '0.3' ? target.taskId : newId();
    else if (!CONFIG_ID.test(id)) {
      throw invalidParams(field('id'), 'must be 1-256 printable characters without "/"');
    }
    if (config.tenant !== undefined && config.tenant !== '' && config.tenant !== target.tenant) {
      throw invalidParams(
        field('tenant'),
        `does not match the tenant of the request (${JSON.stringify(target.tenant)})`,
      );
    }
    const token = config.token === '' ? undefined : config.token;
    if (token !== undefined) checkSecret(token, field('token'));
    const record: PushConfigRecord = {
      taskId: target.taskId,
      id,
      tenant: target.tenant,
      url: url.href,
      protocolVersion: target.version,
      createdAt: new Date().toISOString(),
    };
    let credentials: string | undefined;
    const auth = config.authentication;
    if (auth !== undefined) {
      const schemeField =
        target.version === '0.3' ? field('authentication/schemes/0') : field('authentication/scheme');
      if (!AUTH_SCHEME.test(auth.scheme)) {
        throw invalidParams(schemeField, 'must be an HTTP authentication scheme such as Bearer or Basic');
      }
      credentials = auth.credentials === '' ? undefined : auth.credentials;
      if (credentials !== undefined) checkSecret(credentials, field('authentication/credentials'));
      else if (auth.scheme.toLowerCase() !== 'bearer') {
        throw invalidParams(
          field('authentication/credentials'),
          `are required for the ${auth.scheme} scheme: Concord sends "Authorization: ${auth.scheme} <credentials>"; only Bearer may go without (Concord then sends its signed JWT)`,
        );
      }
      record.authScheme = auth.scheme;
    }
    const sealed = this.box.seal(
      Object.assign(
        {},
        token === undefined ? {} : { token },
        credentials === undefined ? {} : { credentials },
      ),
      record.taskId,
      record.id,
    );
    if (sealed !== undefined) record.sealedSecrets = sealed;
    return record;
  }

  /** Refuses a new config past the per-task limit (replacing one that exists is fine). */
  async checkRoom(record: PushConfigRecord): Promise<void> {
    const existing = await this.store.listConfigs(record.taskId);
    if (existing.length >= MAX_PUSH_CONFIGS_PER_TASK && !existing.some((c) => c.id === record.id)) {
      throw new A2AError(
        'InvalidParamsError',
        `Task ${record.taskId} already has ${MAX_PUSH_CONFIGS_PER_TASK} push configs, the most it may have; delete one first`,
        {
          metadata: { taskId: record.taskId },
          violations: [{ field: '/id', description: 'one config too many' }],
        },
      );
    }
  }

  /** Stores a prepared config. */
  async put(record: PushConfigRecord): Promise<TaskPushNotificationConfig> {
    await this.checkRoom(record);
    await this.store.putConfig(record);
    return publicConfig(record);
  }

  /** One config, or a not-found error naming both ids. */
  async get(taskId: string, id: string): Promise<TaskPushNotificationConfig> {
    const record = await this.store.getConfig(taskId, id);
    if (record === undefined) throw configNotFound(taskId, id);
    return publicConfig(record);
  }

  /** The task's configs, paged (1.0 `pageSize`/`pageToken`; 0.3 gets all of them). */
  async list(
    taskId: string,
    pageSize?: number,
    pageToken?: string,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const all = (await this.store.listConfigs(taskId)).map(publicConfig);
    let start = 0;
    if (pageToken !== undefined && pageToken !== '') {
      const match = /^p(\d{1,4})$/.exec(pageToken);
      if (match === null) throw invalidParams('/pageToken', 'is not a page token issued by this server');
      start = Number(match[1]);
    }
    const size = pageSize === undefined || pageSize <= 0 ? MAX_PUSH_CONFIGS_PER_TASK : pageSize;
    const configs = all.slice(start, start + size);
    const next = start + size < all.length ? `p${start + size}` : '';
    return { configs, nextPageToken: next };
  }

  /** Deletes a config; deleting one that is not there succeeds too (A2A 1.0 §3.1.10: idempotent). */
  async delete(taskId: string, id: string): Promise<void> {
    await this.store.deleteConfig(taskId, id);
  }
}

function checkSecret(value: string, field: string): void {
  if (value.length > MAX_SECRET_LENGTH)
    throw invalidParams(field, `is longer than ${MAX_SECRET_LENGTH} characters`);
  // It travels in an HTTP header: no line breaks, no control characters, no surrounding spaces.
  if (!HEADER_SAFE.test(value)) {
    throw invalidParams(field, 'must be printable ASCII without control characters or surrounding spaces');
  }
}

/** A config that does not exist (or is hidden from the caller): 404 / -32001 with both ids. */
export function configNotFound(taskId: string, id: string): A2AError {
  return new A2AError('TaskNotFoundError', `Push notification config ${id} not found for task ${taskId}`, {
    metadata: { taskId, configId: id },
  });
}

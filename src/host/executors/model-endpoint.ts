/**
 * Where model agents send their chat completions. Resolved once when the host starts, so a host
 * with a model agent and no endpoint refuses to start instead of failing every task later
 * (docs/decisions/0013-model-executor.md "Endpoint resolution").
 */
import type { ModelEndpointConfig } from '../host-config.js';

/** The official endpoint, used only when an API key is set and no base URL is. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** An OpenAI-compatible endpoint, ready to call. */
export interface ResolvedModelEndpoint {
  /** Base URL without a trailing slash; `/chat/completions` is appended to it. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when present. */
  apiKey?: string;
}

/** The model endpoint is missing or unusable; the message says which setting to fix. */
export class ModelEndpointConfigError extends Error {
  override readonly name = 'ModelEndpointConfigError';
}

/** An unset and an empty setting mean the same: `OPENAI_BASE_URL=` in a .env file is "not set". */
function setting(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Resolves the endpoint from the host config, falling back to `OPENAI_BASE_URL` and
 * `OPENAI_API_KEY`. The official OpenAI URL is assumed only when a key is present: without one,
 * calling it could only fail, and a silent default would hide a missing local-server setting.
 */
export function resolveModelEndpoint(
  config: ModelEndpointConfig,
  env: Record<string, string | undefined> = process.env,
): ResolvedModelEndpoint {
  const fromConfig = setting(config.baseUrl);
  const apiKey = setting(config.apiKey) ?? setting(env.OPENAI_API_KEY);
  const base =
    fromConfig ?? setting(env.OPENAI_BASE_URL) ?? (apiKey === undefined ? undefined : OPENAI_BASE_URL);
  if (base === undefined) {
    throw new ModelEndpointConfigError(
      'No model endpoint configured for model agents: set `model.baseUrl` in the host config or the ' +
        'OPENAI_BASE_URL environment variable (e.g. http://127.0.0.1:11434/v1 for a local server), ' +
        'or set `model.apiKey` / OPENAI_API_KEY to use https://api.openai.com/v1.',
    );
  }
  const where = fromConfig !== undefined ? '`model.baseUrl` in the host config' : 'OPENAI_BASE_URL';
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ModelEndpointConfigError(`${where} is not a valid URL: ${JSON.stringify(base)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelEndpointConfigError(`${where} must be an http or https URL, got ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ModelEndpointConfigError(
      `${where} must be a base URL without query or fragment (e.g. https://host/v1), got ${base}`,
    );
  }
  const baseUrl = url.href.replace(/\/+$/, '');
  return apiKey === undefined ? { baseUrl } : { baseUrl, apiKey };
}

/** The endpoint as it may appear in messages: no credentials embedded in the URL. */
export function displayEndpoint(endpoint: ResolvedModelEndpoint): string {
  const url = new URL(endpoint.baseUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

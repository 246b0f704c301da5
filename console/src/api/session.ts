/**
 * Who the console calls as: the credential the operator signed in with, kept in this tab's
 * session storage (gone when the tab closes) and presented on every request the way the host's
 * card declares its scheme (decision 0159). The console has no login of its own.
 */

import type { ConsoleScheme } from '../../../src/host/console/console-scheme';

export type { ConsoleScheme };

/** The credential in use: the scheme it is for, and its value. */
export interface Credential {
  scheme: ConsoleScheme;
  value: string;
}

const KEY = 'concord-console-credential';

export function loadCredential(): Credential | undefined {
  try {
    const text = sessionStorage.getItem(KEY);
    return text === null ? undefined : (JSON.parse(text) as Credential);
  } catch {
    return undefined;
  }
}

export function saveCredential(credential: Credential | undefined): void {
  if (credential === undefined) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(credential));
}

/** Adds the credential to a request's headers or URL, as its scheme says. */
export function present(credential: Credential | undefined, url: URL, headers: Headers): void {
  if (credential === undefined) return;
  const { scheme, value } = credential;
  if (scheme.type === 'http') {
    const name = (scheme.scheme ?? 'bearer').toLowerCase() === 'basic' ? 'Basic' : 'Bearer';
    headers.set('authorization', `${name} ${value}`);
  } else if (scheme.in === 'query') {
    url.searchParams.set(scheme.keyName ?? 'api_key', value);
  } else if (scheme.in === 'header') {
    headers.set(scheme.keyName ?? 'x-api-key', value);
  }
  // A cookie key is set on the document by the sign-in form, and the browser sends it itself.
}

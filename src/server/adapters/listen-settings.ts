/**
 * Settings of `listen` that the CLI and the host check the same way before they call it: the
 * default request timeout and the public URL's form (decision 0138). Internal (decision 0155): they
 * reach it through src/server/internal.ts.
 */

/** The default `requestTimeoutMs` of `listen`: the whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A public URL as a base URL: absolute http(s), ending in `/` (paths below it are relative). */
export function publicBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} is not an http(s) URL`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} has a query or fragment`);
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

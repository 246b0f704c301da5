/**
 * One reading of "an absolute http(s) URL" for the card layer: card URLs (interfaces, provider,
 * icon, documentation), the builder's base URL and a signing key's `jku` all go through it.
 */

/** A parsed http(s) URL, or why the text is not one. */
export type HttpUrlCheck = { ok: true; url: URL; loopback: boolean } | { ok: false; problem: string };

/** Whether a hostname (as `URL.hostname` gives it) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/** Parses `text` as an absolute http: or https: URL. */
export function checkHttpUrl(text: string): HttpUrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `"${text}" is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: `"${text}" uses ${url.protocol} where http(s) is required` };
  }
  return { ok: true, url, loopback: isLoopbackHost(url.hostname) };
}

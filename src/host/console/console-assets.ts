/**
 * The console's built files (decision 0159): `dist/console/` holds what `scripts/build-console.mjs`
 * bundled from `console/` at build time — one HTML page, one script, one style sheet. They are read
 * once, on the first request, and served with a strong ETag, `no-cache` (a reload checks the ETag,
 * so an upgrade is seen at once) and the console's security headers: a Content-Security-Policy
 * that lets the page load and fetch from its own origin only, and nothing else anywhere.
 */
import { readFile } from 'node:fs/promises';
import { etagOf, type HttpRequest, type HttpResponse } from '../../server/internal.js';

/**
 * The page may run, style and fetch only what its own origin serves: no inline script or style,
 * no eval (the schema checks in the browser interpret, they do not compile), no frames, no form
 * posts, no plugins (decision 0159).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every console response carries, data answers included. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** The files below `/console/` and their media types; the page is also served at `/console`. */
const FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

interface Asset {
  body: string;
  etag: string;
  type: string;
}

/**
 * Where the built files are: `dist/console` of the package. This module sits three folders below
 * the package root both as source (`src/host/console`) and built (`dist/host/console`).
 */
const ASSET_DIR = new URL('../../../dist/console/', import.meta.url);

/** The console's files, read on first use. */
export class ConsoleAssets {
  private loaded: Promise<Map<string, Asset>> | undefined;

  constructor(private readonly dir: URL = ASSET_DIR) {}

  /** Answers `GET|HEAD /console[/<file>]`; `name` is the file ('' for the page). */
  async serve(request: HttpRequest, name: string): Promise<HttpResponse> {
    const assets = await this.load();
    const asset = assets.get(name === '' ? 'index.html' : name);
    if (asset === undefined) return plain(404, `No console file ${name}`);
    const headers: Record<string, string> = {
      ...CONSOLE_SECURITY_HEADERS,
      'content-type': asset.type,
      etag: asset.etag,
      'cache-control': 'no-cache',
    };
    const match = request.header('if-none-match');
    if (
      match !== undefined &&
      match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)
    ) {
      return { status: 304, headers, body: '' };
    }
    return { status: 200, headers, body: request.method === 'HEAD' ? '' : asset.body };
  }

  private load(): Promise<Map<string, Asset>> {
    this.loaded ??= (async () => {
      const assets = new Map<string, Asset>();
      for (const [name, type] of Object.entries(FILES)) {
        let body: string;
        try {
          body = await readFile(new URL(name, this.dir), 'utf8');
        } catch {
          // A checkout that was never built: say how to build it rather than serve nothing.
          body =
            name === 'index.html'
              ? '<!doctype html><title>Concord Console</title><p>The console is not built: run npm run build.</p>'
              : '';
        }
        assets.set(name, { body, etag: etagOf(body), type });
      }
      return assets;
    })();
    return this.loaded;
  }
}

function plain(status: number, text: string): HttpResponse {
  return { status, headers: { ...CONSOLE_SECURITY_HEADERS, 'content-type': 'text/plain' }, body: text };
}

/**
 * Every relative link in the project's markdown resolves: the README is a front door
 * whose guides live in docs/guides/, and a section moved between files would otherwise leave a
 * link, or a `#fragment` to a heading, pointing at nothing. Links inside code blocks and inline
 * code are not links; absolute URLs are not checked (no network in the suite).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The markdown files checked: the root documents, docs/ and the examples' READMEs. */
function markdownFiles(): string[] {
  const below = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name);
      if (name === 'node_modules' || name.startsWith('.')) return [];
      if (statSync(full).isDirectory()) return below(full);
      return name.endsWith('.md') ? [full] : [];
    });
  const root = readdirSync(ROOT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, name));
  return [...root, ...below(join(ROOT, 'docs')), ...below(join(ROOT, 'examples'))];
}

/** The text outside fenced code blocks and inline code, where `[text](target)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a markdown file offers, numbered as GitHub numbers repeated headings. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} +(.+?)#*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Each relative link of `file` that does not resolve, as `target: why`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [path, fragment] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (fragment !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(fragment))
      broken.push(`${target}: no heading #${fragment} in ${relative(ROOT, resolved)}`);
  }
  return broken;
}

describe('markdown links', () => {
  it('finds the guides the README links to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/guides/deploy.md)');
    expect(markdownFiles().map((f) => relative(ROOT, f))).toContain('docs/guides/deploy.md');
  });

  it('reports a missing file and a missing heading', () => {
    // The checker itself: a link that cannot resolve is reported, so the test below can fail.
    expect(slug('Connections, timeouts and a proxy in front')).toBe(
      'connections-timeouts-and-a-proxy-in-front',
    );
    expect(slug('AUMP user mandates (`concord-a2a/extensions/aump`)')).toBe(
      'aump-user-mandates-concord-a2aextensionsaump',
    );
    const dir = mkdtempSync(join(tmpdir(), 'concord-links-'));
    try {
      const file = join(dir, 'page.md');
      writeFileSync(
        file,
        '# Page\n\n[a](page.md#page) [b](gone.md) [c](#nowhere) `[d](x.md)` [e](https://a2a-protocol.org)\n\n' +
          '```md\n[f](also-gone.md)\n```\n',
      );
      expect(brokenLinks(file)).toEqual([
        'gone.md: no such file',
        `#nowhere: no heading #nowhere in ${relative(ROOT, file)}`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(markdownFiles().map((f) => [relative(ROOT, f)]))('%s has no broken relative link', (file) => {
    expect(brokenLinks(join(ROOT, file))).toEqual([]);
  });
});

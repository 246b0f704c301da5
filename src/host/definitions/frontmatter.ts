/**
 * Agent markdown: YAML frontmatter between `---` lines, then the system prompt (Shaman's agent
 * files, Shaman's agent-card.md "Shaman Implementation"). The YAML is parsed with `yaml`'s
 * `parseDocument` and a `LineCounter`, so syntax errors and every field can be given a line of
 * the markdown file itself.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { pointerSegments, type Locator, type ProblemSink } from './definition-error.js';

/** A markdown file split into its parsed frontmatter and its body. */
export interface ParsedMarkdown {
  /** The frontmatter's value (undefined when the YAML did not parse). */
  data: unknown;
  /** The body, trimmed: the system prompt. */
  body: string;
  locator: Locator;
}

const FENCE = /^---[ \t]*$/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

/** Whether `text` starts with a frontmatter fence (files without one are not agent definitions). */
export function hasFrontmatter(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return FENCE.test(first);
}

/**
 * Splits and parses an agent markdown file. YAML errors are reported to `sink` with their line;
 * returns undefined when there is no usable frontmatter at all.
 */
export function parseMarkdown(text: string, sink: ProblemSink): ParsedMarkdown | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) {
    sink.add('', "no YAML frontmatter: an agent file starts with a '---' line", 1);
    return undefined;
  }
  const end = lines.findIndex((line, index) => index > 0 && CLOSING.test(line));
  if (end < 0) {
    sink.add('', "the frontmatter is not closed: no '---' line after it", 1);
    return undefined;
  }
  // The YAML starts on line 2 of the file; every YAML line number is shifted by one.
  const offset = 1;
  const lineCounter = new LineCounter();
  const doc = parseDocument(lines.slice(1, end).join('\n'), { lineCounter, prettyErrors: true });
  for (const error of doc.errors) {
    const line = error.linePos?.[0].line;
    sink.add('', `YAML: ${firstLine(error.message)}`, line === undefined ? offset + 1 : line + offset);
  }
  const locator = createYamlLocator(doc.contents, lineCounter, offset);
  sink.locate(locator);
  return {
    data: doc.errors.length > 0 ? undefined : doc.toJS(),
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    locator,
  };
}

/** The parser's message without the " at line L, column C:" suffix and the source excerpt. */
function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/** Maps JSON Pointers to lines by walking the YAML syntax tree (keys' lines for map members). */
function createYamlLocator(root: Node | null, counter: LineCounter, offset: number): Locator {
  const lineAt = (node: { range?: unknown } | null | undefined): number | undefined => {
    const range = node?.range as [number, number, number] | null | undefined;
    return range ? counter.linePos(range[0]).line + offset : undefined;
  };
  return {
    lineOf(pointer: string): number | undefined {
      let node: unknown = root;
      let line = lineAt(root) ?? offset + 1;
      for (const segment of pointerSegments(pointer)) {
        if (isMap(node)) {
          const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
          if (!pair) break;
          line = lineAt(pair.key as Node) ?? line;
          node = pair.value;
        } else if (isSeq(node)) {
          const item = node.items[Number(segment)] as Node | undefined;
          if (item === undefined || !/^\d+$/.test(segment)) break;
          line = lineAt(item) ?? line;
          node = item;
        } else {
          break;
        }
      }
      return line;
    },
  };
}

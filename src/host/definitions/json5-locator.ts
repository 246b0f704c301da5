/**
 * Line numbers for JSON5 documents. The `json5` parser returns plain values without positions, so
 * this scanner walks the same source once and records, for every JSON Pointer, the line where its
 * value is written (the key's line for an object member). It expects source that `JSON5.parse`
 * has already accepted, and follows the JSON5 grammar (spec.json5.org §2, §5, §6): comments,
 * quoted and unquoted keys, single- or double-quoted strings with escapes and line continuations,
 * and the JSON5 line terminators LF, CR, CRLF, U+2028 and U+2029.
 */
import { childPointer, type Locator } from './definition-error.js';

/** A key written twice in one object (JSON5 keeps the last silently; we report it). */
export interface DuplicateKey {
  pointer: string;
  line: number;
}

/** The lines of a JSON5 document's values, plus its duplicate keys. */
export interface Json5Locator extends Locator {
  readonly duplicateKeys: DuplicateKey[];
}

/** Scans `source` (valid JSON5) and returns its locator. */
export function createJson5Locator(source: string): Json5Locator {
  const scanner = new Json5Scanner(source);
  scanner.skipBlank();
  if (scanner.pos < source.length) scanner.value('');
  const { lines, duplicateKeys } = scanner;
  return {
    duplicateKeys,
    lineOf(pointer: string): number | undefined {
      let current = pointer;
      for (;;) {
        const line = lines.get(current);
        if (line !== undefined) return line;
        if (current === '') return undefined;
        current = current.slice(0, current.lastIndexOf('/'));
      }
    },
  };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '0': '\0',
};

/** Characters that end an unquoted key or a literal (number, true, false, null, Infinity, NaN). */
const DELIMITER = /[\s,:[\]{}/\u2028\u2029\uFEFF]/;

class Json5Scanner {
  pos = 0;
  line = 1;
  readonly lines = new Map<string, number>();
  readonly duplicateKeys: DuplicateKey[] = [];

  constructor(private readonly src: string) {}

  /** Consumes a line terminator at `pos` if there is one (CRLF counts once). */
  private newline(): boolean {
    const ch = this.src[this.pos];
    if (ch === '\r') {
      this.pos += this.src[this.pos + 1] === '\n' ? 2 : 1;
    } else if (ch === '\n' || ch === '\u2028' || ch === '\u2029') {
      this.pos += 1;
    } else {
      return false;
    }
    this.line += 1;
    return true;
  }

  /** Skips white space and comments. */
  skipBlank(): void {
    while (this.pos < this.src.length) {
      if (this.newline()) continue;
      const ch = this.src[this.pos]!;
      if (/\s|\uFEFF/.test(ch)) {
        this.pos += 1;
      } else if (this.src.startsWith('//', this.pos)) {
        while (this.pos < this.src.length && !this.newline()) this.pos += 1;
      } else if (this.src.startsWith('/*', this.pos)) {
        this.pos += 2;
        while (this.pos < this.src.length && !this.src.startsWith('*/', this.pos)) {
          if (!this.newline()) this.pos += 1;
        }
        this.pos += 2;
      } else {
        return;
      }
    }
  }

  /** Records the line of the value at `pointer` and scans past it. */
  value(pointer: string, line = this.line): void {
    if (!this.lines.has(pointer)) this.lines.set(pointer, line);
    const ch = this.src[this.pos];
    if (ch === '{') this.object(pointer);
    else if (ch === '[') this.array(pointer);
    else if (ch === '"' || ch === "'") this.string();
    else this.word();
  }

  private object(pointer: string): void {
    this.pos += 1;
    const seen = new Set<string>();
    for (;;) {
      this.skipBlank();
      if (this.src[this.pos] === '}' || this.pos >= this.src.length) break;
      const keyLine = this.line;
      const ch = this.src[this.pos];
      const key = ch === '"' || ch === "'" ? this.string() : this.word();
      const child = childPointer(pointer, key);
      if (seen.has(key)) this.duplicateKeys.push({ pointer: child, line: keyLine });
      seen.add(key);
      this.skipBlank();
      this.pos += 1; // ':'
      this.skipBlank();
      this.value(child, keyLine);
      this.skipBlank();
      if (this.src[this.pos] === ',') this.pos += 1;
    }
    this.pos += 1;
  }

  private array(pointer: string): void {
    this.pos += 1;
    for (let index = 0; ; index += 1) {
      this.skipBlank();
      if (this.src[this.pos] === ']' || this.pos >= this.src.length) break;
      this.value(childPointer(pointer, index));
      this.skipBlank();
      if (this.src[this.pos] === ',') this.pos += 1;
    }
    this.pos += 1;
  }

  /** Scans a quoted string and returns its decoded value (JSON5 spec §5.1 escapes). */
  private string(): string {
    const quote = this.src[this.pos];
    this.pos += 1;
    let out = '';
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === quote) {
        this.pos += 1;
        break;
      }
      if (ch !== '\\') {
        out += ch;
        this.pos += 1;
        continue;
      }
      this.pos += 1;
      if (this.newline()) continue; // a line continuation adds nothing to the value
      out += this.escape();
    }
    return out;
  }

  /** Decodes the escape after a backslash (`pos` is on the character after it). */
  private escape(): string {
    const ch = this.src[this.pos]!;
    if (ch === 'x' || ch === 'u') {
      const width = ch === 'x' ? 2 : 4;
      const hex = this.src.slice(this.pos + 1, this.pos + 1 + width);
      this.pos += 1 + width;
      return String.fromCharCode(parseInt(hex, 16));
    }
    this.pos += 1;
    return SIMPLE_ESCAPES[ch] ?? ch;
  }

  /** Scans an unquoted key or a literal, decoding `\uXXXX` escapes (identifiers may hold them). */
  private word(): string {
    let out = '';
    while (this.pos < this.src.length && !DELIMITER.test(this.src[this.pos]!)) {
      if (this.src[this.pos] === '\\') {
        this.pos += 1;
        out += this.escape();
      } else {
        out += this.src[this.pos];
        this.pos += 1;
      }
    }
    return out;
  }
}

/**
 * Reads one JSON document as it arrives and takes out the elements of the arrays at one path, so
 * a reader can handle them one at a time and never hold the document whole (decision 0173: a task
 * of hundreds of megabytes read back with GetTask, its artifacts' parts taken out as they come).
 *
 * Only the structure is read here, not the values: a string is skipped with `indexOf`, so the cost
 * is that of finding its closing quote, and the megabytes of a part's `raw` or `text` are never
 * looked at one character at a time. Each element taken out is handed over as its own JSON text,
 * with the indexes of the path's `*` segments that lead to it; what remains, the skeleton, is the
 * document with each such array holding only `placeholder` (so that a decoder that wants a
 * non-empty array still reads it). The document is not validated here: the element texts and the
 * skeleton go to JSON.parse, which refuses what is not JSON.
 */

/** One container being read. */
interface Frame {
  array: boolean;
  /** In an object: the next string is a member name. */
  expectName: boolean;
  /** In an object, the last member name read; in an array, the index of the current element. */
  name: string;
  index: number;
  /** How many path segments lead here (-1: off the path); the path's length marks a target array. */
  depth: number;
}

/** An element taken out: its JSON text and the `*` indexes on its way. */
export interface SplitElement {
  text: string;
  at: number[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonSplitter {
  private readonly stack: Frame[] = [];
  private skeleton: string[] = [];
  private skeletonChars = 0;
  /** Within a string: its text so far when it is a member name, else undefined. */
  private inString = false;
  private nameText: string | undefined;
  /** Backslashes at the end of the last chunk while in a string: one escaping what comes next. */
  private escaped = false;
  /** The element being taken out: its text so far and how deep inside it the reader is. */
  private capture: string[] | undefined;
  private captureLevel = 0;
  private captureBytes = 0;
  private taken: SplitElement[] = [];

  /**
   * `path` names the arrays whose elements are taken out: member names, and `*` for any element
   * of an array. `maxElementChars` bounds one element, and the skeleton: what a reader holds.
   */
  constructor(
    private readonly path: readonly string[],
    private readonly placeholder: string,
    private readonly maxElementChars = Number.POSITIVE_INFINITY,
  ) {}

  /** Reads the next chunk of the document; returns the elements completed in it. */
  push(chunk: string): SplitElement[] {
    let copyFrom = 0;
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.inString) {
        const end = this.closingQuote(chunk, i);
        if (end === -1) {
          if (this.nameText !== undefined) this.nameText += chunk.slice(i);
          i = n;
          break;
        }
        if (this.nameText !== undefined) {
          const top = this.stack[this.stack.length - 1]!;
          top.name = JSON.parse(`"${this.nameText}${chunk.slice(i, end)}"`) as string;
          top.expectName = false;
          this.nameText = undefined;
        }
        this.inString = false;
        i = end + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.capture !== undefined) {
        if (this.captureLevel === 0 && (c === 0x2c || c === 0x5d)) {
          // `,` or `]` after the element at the target array's level: the element is whole.
          this.endCapture(chunk.slice(copyFrom, i));
          if (c === 0x2c) {
            copyFrom = i + 1;
            i++;
            continue;
          }
          this.skeleton.push(this.placeholder);
          copyFrom = i;
          // The `]` itself is read below as the end of the target array.
        } else {
          if (c === QUOTE) this.inString = true;
          else if (c === 0x7b || c === 0x5b) this.captureLevel++;
          else if (c === 0x7d || c === 0x5d) this.captureLevel--;
          i++;
          continue;
        }
      }
      const top = this.stack[this.stack.length - 1];
      if (top !== undefined && top.array && top.depth === this.path.length && c !== 0x5d) {
        // The start of an element of a target array: what was read before it is skeleton.
        this.addSkeleton(chunk.slice(copyFrom, i));
        copyFrom = i;
        this.capture = [];
        this.captureLevel = 0;
        this.captureBytes = 0;
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.nameText = top !== undefined && !top.array && top.expectName ? '' : undefined;
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.stack.push({
            array: c === 0x5b,
            expectName: c === 0x7b,
            name: '',
            index: 0,
            depth: this.depthBelow(top),
          });
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.stack.pop();
          break;
        case 0x2c: // ,
          if (top !== undefined) {
            if (top.array) top.index++;
            else top.expectName = true;
          }
          break;
        default:
          break;
      }
      i++;
    }
    if (this.capture !== undefined) this.addCaptured(chunk.slice(copyFrom));
    else this.addSkeleton(chunk.slice(copyFrom));
    const taken = this.taken;
    this.taken = [];
    return taken;
  }

  /** The document without the elements taken out; after the last chunk. */
  end(): string {
    if (this.capture !== undefined || this.stack.length > 0 || this.inString) {
      throw new SyntaxError('the JSON document ended before it was complete');
    }
    const text = this.skeleton.join('');
    this.skeleton = [];
    return text;
  }

  /** The path segments matched by a container opened inside `parent`. */
  private depthBelow(parent: Frame | undefined): number {
    if (parent === undefined) return 0;
    if (parent.depth === -1 || parent.depth >= this.path.length) return -1;
    const segment = this.path[parent.depth];
    if (parent.array) return segment === '*' ? parent.depth + 1 : -1;
    return segment === parent.name ? parent.depth + 1 : -1;
  }

  /** The index of the quote that closes the string being read, from `from`; -1 past the chunk. */
  private closingQuote(chunk: string, from: number): number {
    let at = from;
    for (;;) {
      const quote = chunk.indexOf('"', at);
      if (quote === -1) {
        // Whether the chunk ends inside an escape: an odd run of backslashes at its end.
        let run = 0;
        for (let k = chunk.length - 1; k >= at && chunk.charCodeAt(k) === BACKSLASH; k--) run++;
        this.escaped = run === chunk.length - at ? this.escaped !== (run % 2 === 1) : run % 2 === 1;
        return -1;
      }
      let run = 0;
      for (let k = quote - 1; k >= at && chunk.charCodeAt(k) === BACKSLASH; k--) run++;
      const fromStart = run === quote - at;
      const odd = fromStart ? this.escaped !== (run % 2 === 1) : run % 2 === 1;
      this.escaped = false;
      if (!odd) return quote;
      at = quote + 1;
    }
  }

  private endCapture(last: string): void {
    this.addCaptured(last);
    // The index in each array on the path, the target array's last: the element's own place.
    const at: number[] = [];
    for (const frame of this.stack) if (frame.array && frame.depth !== -1) at.push(frame.index);
    this.taken.push({ text: this.capture!.join(''), at });
    this.stack[this.stack.length - 1]!.index++;
    this.capture = undefined;
  }

  private addCaptured(text: string): void {
    this.captureBytes += text.length;
    if (this.captureBytes > this.maxElementChars) {
      throw new RangeError(
        `an element at /${this.path.join('/')} is over ${this.maxElementChars} characters`,
      );
    }
    this.capture!.push(text);
  }

  private addSkeleton(text: string): void {
    this.skeletonChars += text.length;
    if (this.skeletonChars > this.maxElementChars) {
      throw new RangeError(
        `the document without its elements at /${this.path.join('/')} is over ${this.maxElementChars} characters`,
      );
    }
    this.skeleton.push(text);
  }
}

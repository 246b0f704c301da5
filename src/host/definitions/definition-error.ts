/**
 * Problems found while loading agent definitions and the host config. The loader collects every
 * problem across every file before failing, so one run shows the author everything to fix
 * (DESIGN.md house style 12: name what was wrong and where).
 */

/** One thing wrong with a definition, located as precisely as the source allows. */
export interface DefinitionProblem {
  /** Absolute path of the file. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** JSON Pointer within the file's document (frontmatter or config); '' is the whole document. */
  field: string;
  message: string;
}

/** Formats one problem as `file:line: field: message` (parts that are unknown are left out). */
export function formatProblem(problem: DefinitionProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return problem.field === ''
    ? `${where}: ${problem.message}`
    : `${where}: ${problem.field}: ${problem.message}`;
}

/** Thrown by `loadHost` when any definition is wrong; `problems` lists all of them. */
export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  readonly problems: DefinitionProblem[];

  constructor(problems: DefinitionProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Invalid agent definitions (${count}):\n${problems.map(formatProblem).join('\n')}`);
    this.problems = problems;
  }
}

/** Maps a JSON Pointer to the 1-based line where that value is written. */
export interface Locator {
  /** The line of the value at `pointer`, or of its nearest ancestor that exists. */
  lineOf(pointer: string): number | undefined;
}

/** Collects the problems of one file, locating each field through the file's locator. */
export class ProblemSink {
  readonly problems: DefinitionProblem[] = [];

  constructor(
    readonly file: string,
    private locator: Locator | undefined = undefined,
    private readonly all: DefinitionProblem[] = [],
  ) {}

  /** Sets the locator once the file has parsed. */
  locate(locator: Locator): void {
    this.locator = locator;
  }

  /** The line of `pointer` in this file, when the file has parsed. */
  lineOf(pointer: string): number | undefined {
    return this.locator?.lineOf(pointer);
  }

  /** Records a problem at `field`, on the field's line (or `line` when the parser gave one). */
  add(field: string, message: string, line?: number): void {
    const at = line ?? this.locator?.lineOf(field);
    const problem: DefinitionProblem = { file: this.file, field, message };
    if (at !== undefined) problem.line = at;
    this.problems.push(problem);
    this.all.push(problem);
  }

  /** Whether any problem was recorded at `field` or below it. */
  hasUnder(field: string): boolean {
    return this.problems.some((p) => p.field === field || p.field.startsWith(`${field}/`));
  }
}

/** Appends one escaped segment to a JSON Pointer (RFC 6901 §3: `~` -> `~0`, `/` -> `~1`). */
export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Splits a JSON Pointer into unescaped segments (RFC 6901 §4). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

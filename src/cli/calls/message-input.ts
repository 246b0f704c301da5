/**
 * Builds the message `concord send` sends (decision 0169, a2a-cli SPEC v0.2 §8.2): its parts in
 * the order the command line gives them, from the text arguments and the repeatable part flags
 * `--text <s>`, `--file <path|url>`, `--data <path|->` (the later spec text's `--text-part`,
 * `--file-part`, `--data-part` too), each optionally followed by `--media-type <type>`. With
 * `--contract`, the payload goes in the contract envelope `{_a2a, contract, payload,
 * correlationId}` as a data part with the contract media type (decision 0016). Input mistakes are
 * UsageErrors that name the option and where the JSON went wrong, reported before anything is
 * sent.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { createContractMessage } from '../../contracts/index.js';
import type { Message, Part } from '../../protocol/index.js';
import { UsageError } from '../exit-codes.js';

/** The part flags, each with its kind; `-part` are the later v0.2 text's spellings. */
export const PART_FLAGS = {
  text: 'text',
  'text-part': 'text',
  file: 'file',
  'file-part': 'file',
  data: 'data',
  'data-part': 'data',
} as const;

/** parseArgs definitions of the part flags and `--media-type`. */
export const PART_OPTIONS = {
  text: { type: 'string', multiple: true },
  'text-part': { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  'file-part': { type: 'string', multiple: true },
  data: { type: 'string', multiple: true },
  'data-part': { type: 'string', multiple: true },
  'media-type': { type: 'string', multiple: true },
} as const;

/** One part as the command line gave it. */
export interface PartSpec {
  kind: 'text' | 'file' | 'data';
  /** The flag as typed (`--data`, `--data-part`, or `text` for the text arguments). */
  flag: string;
  value: string;
  mediaType?: string;
}

/** A token of `parseArgs({ tokens: true })` (the parts it has that matter here). */
export type ArgToken =
  | { kind: 'option'; name: string; rawName: string; value?: string | undefined }
  | { kind: 'positional'; value: string }
  | { kind: 'option-terminator' };

/**
 * The parts in command-line order. The text arguments (all positionals after the first
 * `skipPositionals`, which name the agent) make one text part where the first of them stands.
 * `--media-type` binds to the part flag right before it and is a usage error anywhere else.
 */
export function partSpecs(tokens: readonly ArgToken[], skipPositionals: number): PartSpec[] {
  const specs: PartSpec[] = [];
  let text: PartSpec | undefined;
  let skipped = 0;
  let previous: PartSpec | 'other' | undefined;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (skipped < skipPositionals) {
        skipped++;
        previous = 'other';
        continue;
      }
      if (text === undefined) {
        text = { kind: 'text', flag: 'text', value: token.value };
        specs.push(text);
      } else text.value += ` ${token.value}`;
      previous = 'other';
      continue;
    }
    if (Object.hasOwn(PART_FLAGS, token.name)) {
      const kind = PART_FLAGS[token.name as keyof typeof PART_FLAGS];
      const spec: PartSpec = { kind, flag: token.rawName, value: token.value ?? '' };
      specs.push(spec);
      previous = spec;
    } else if (token.name === 'media-type') {
      if (previous === undefined || previous === 'other' || previous.mediaType !== undefined)
        throw new UsageError(
          '--media-type sets the media type of the part flag right before it (--text, --file or --data)',
        );
      const type = token.value ?? '';
      if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(type))
        throw new UsageError(
          `--media-type: expected a media type such as application/pdf, got ${JSON.stringify(type)}`,
        );
      previous.mediaType = type;
    } else {
      previous = 'other';
    }
  }
  return specs;
}

/** Media types by file extension, for a file part given none (SPEC §8.2: infer only then). */
const MEDIA_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
};

function inferredType(name: string): string | undefined {
  return MEDIA_TYPES[extname(name).toLowerCase()];
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** Parses JSON given on the command line; the error names `what`, the position and the cause. */
export function parseJsonArgument(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    const position = /position (\d+)/.exec(reason);
    const where = position === null ? '' : ` at ${lineColumn(text, Number(position[1]))}`;
    const tidy = reason.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    throw new UsageError(`${what} is not valid JSON${where}: ${tidy}`);
  }
}

/** Reads a file an argument names; a file that cannot be read is a mistake in the command line. */
function readArgument(path: string, flag: string): Buffer {
  try {
    return readFileSync(path === '-' ? 0 : path);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`${flag}: cannot read ${path === '-' ? 'stdin' : path} (${why})`);
  }
}

/**
 * The JSON of a data part flag: a file, or stdin for `-`; `--data` also takes the JSON itself
 * when it starts with `{` or `[` (Concord's earlier `--data '<json>'`, which no file name starts
 * with; `--data-part` takes a file only).
 */
export function dataOf(spec: PartSpec): unknown {
  const inline = spec.flag === '--data' && /^\s*[{[]/.test(spec.value);
  if (inline) return parseJsonArgument(spec.value, spec.flag);
  const text = readArgument(spec.value, spec.flag).toString('utf8');
  return parseJsonArgument(text, `${spec.flag} ${spec.value === '-' ? '- (stdin)' : spec.value}`);
}

/** A part from its spec: text as is, a file inline (a path) or by reference (a URL), data parsed. */
export function partOf(spec: PartSpec): Part {
  const typed = spec.mediaType === undefined ? {} : { mediaType: spec.mediaType };
  if (spec.kind === 'text') return { text: spec.value, ...typed };
  if (spec.kind === 'data') return { data: dataOf(spec), mediaType: spec.mediaType ?? 'application/json' };
  if (/^https?:\/\//i.test(spec.value)) {
    // A URL is a reference the agent fetches; the CLI neither fetches nor re-hosts it.
    const url = new URL(spec.value);
    const name = basename(decodeURIComponent(url.pathname));
    const mediaType = spec.mediaType ?? inferredType(name);
    return {
      url: url.href,
      ...(name === '' ? {} : { filename: name }),
      ...(mediaType === undefined ? {} : { mediaType }),
    };
  }
  if (spec.value === '-') throw new UsageError(`${spec.flag}: expected a file path or an http(s) URL`);
  const bytes = readArgument(spec.value, spec.flag);
  return {
    raw: bytes.toString('base64'),
    filename: basename(spec.value),
    mediaType: spec.mediaType ?? inferredType(spec.value) ?? 'application/octet-stream',
  };
}

/** The send options that shape the message. */
export interface MessageInput {
  parts: PartSpec[];
  contract?: string | undefined;
  correlationId?: string | undefined;
  contextId?: string | undefined;
  taskId?: string | undefined;
}

/** The message to send. */
export function buildMessage(input: MessageInput): Message {
  const ids: Partial<Message> = {};
  if (input.contextId !== undefined) ids.contextId = input.contextId;
  if (input.taskId !== undefined) ids.taskId = input.taskId;
  if (input.parts.filter((p) => p.value === '-').length > 1)
    throw new UsageError('stdin (-) can be read by one part flag only');
  if (input.contract !== undefined) {
    if (input.contract === '') throw new UsageError('--contract: the contract name is empty');
    const [only, ...more] = input.parts;
    if (more.length > 0 || (only !== undefined && only.kind === 'file'))
      throw new UsageError('--contract takes one payload: --data <json|file> or the text as JSON');
    if (only === undefined)
      throw new UsageError(`--contract ${input.contract} needs a payload: --data <json|file> or JSON text`);
    const payload =
      only.kind === 'data'
        ? dataOf(only)
        : parseJsonArgument(only.value, 'the text (the --contract payload)');
    return createContractMessage({ name: input.contract }, payload, {
      correlationId: input.correlationId ?? globalThis.crypto.randomUUID(),
      ...ids,
    });
  }
  if (input.correlationId !== undefined) throw new UsageError('--correlation-id needs --contract');
  const parts = input.parts
    .filter((p) => !(p.kind === 'text' && p.flag === 'text' && p.value === ''))
    .map(partOf);
  if (parts.length === 0) throw new UsageError('nothing to send: give the text, or --text, --file or --data');
  return { messageId: globalThis.crypto.randomUUID(), role: 'ROLE_USER', parts, ...ids };
}

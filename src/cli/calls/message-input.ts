/**
 * Builds the message `concord send` sends from its arguments: text, a data part from `--data`,
 * or, with `--contract`, the contract envelope `{_a2a, contract, payload, correlationId}` as a
 * data part with the contract media type, built by the public contracts helpers (decision 0016).
 * Input mistakes are UsageErrors that name the option and where the JSON went wrong.
 */
import { createContractMessage } from '../../contracts/index.js';
import type { Message, Part } from '../../protocol/index.js';
import { UsageError } from '../exit-codes.js';

/** The send options that shape the message. */
export interface MessageInput {
  text: string;
  data?: string | undefined;
  contract?: string | undefined;
  correlationId?: string | undefined;
  contextId?: string | undefined;
  taskId?: string | undefined;
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

/** The message to send. */
export function buildMessage(input: MessageInput): Message {
  const ids: Partial<Message> = {};
  if (input.contextId !== undefined) ids.contextId = input.contextId;
  if (input.taskId !== undefined) ids.taskId = input.taskId;
  if (input.contract !== undefined) {
    if (input.contract === '') throw new UsageError('--contract: the contract name is empty');
    if (input.data !== undefined && input.text !== '')
      throw new UsageError('--contract takes one payload: --data <json> or the text as JSON, not both');
    let payload: unknown;
    if (input.data !== undefined) payload = parseJsonArgument(input.data, '--data');
    else if (input.text !== '') payload = parseJsonArgument(input.text, 'the text (the --contract payload)');
    else throw new UsageError(`--contract ${input.contract} needs a payload: --data <json> or JSON text`);
    return createContractMessage({ name: input.contract }, payload, {
      correlationId: input.correlationId ?? globalThis.crypto.randomUUID(),
      ...ids,
    });
  }
  if (input.correlationId !== undefined) throw new UsageError('--correlation-id needs --contract');
  const parts: Part[] = [];
  if (input.text !== '') parts.push({ text: input.text });
  if (input.data !== undefined)
    parts.push({ data: parseJsonArgument(input.data, '--data'), mediaType: 'application/json' });
  if (parts.length === 0) throw new UsageError('nothing to send: give the text, or --data <json>');
  return { messageId: globalThis.crypto.randomUUID(), role: 'ROLE_USER', parts, ...ids };
}

/**
 * What counts as the reply of an agent under a contract, for the server's output check and the
 * client's alike (decision 0030): the data parts of an artifact or message (a
 * structured reply is data: the target is told to "respond with JSON matching this schema",
 * OpenClaw PR #19293 a2a-contracts.md "Contract context injection"), or, when there are none, the JSON its text
 * holds (a model agent answers in text).
 */
import type { Part } from '../protocol/index.js';

/** One reply value and the index of the part that carries it. */
export interface ReplyValue {
  index: number;
  value: unknown;
}

function parseJson(text: string): { value: unknown } | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return { value: JSON.parse(trimmed) as unknown };
  } catch {
    return undefined; // prose that happens to start with a brace is not a structured reply
  }
}

/**
 * The reply values of a list of parts; see the file comment. Text parts are first read together:
 * a streamed reply arrives as one text cut into chunks (A2A 1.0 §4.2.2 append), each a part.
 */
export function replyValues(parts: readonly Part[]): ReplyValue[] {
  const data = parts.flatMap((part, index) => ('data' in part ? [{ index, value: part.data }] : []));
  if (data.length > 0) return data;
  const texts = parts.flatMap((part, index) =>
    typeof part.text === 'string' ? [{ index, text: part.text }] : [],
  );
  if (texts.length === 0) return [];
  if (texts.length > 1) {
    const joined = parseJson(texts.map((t) => t.text).join(''));
    if (joined !== undefined) return [{ index: texts[0]!.index, value: joined.value }];
  }
  return texts.flatMap(({ index, text }) => {
    const parsed = parseJson(text);
    return parsed === undefined ? [] : [{ index, value: parsed.value }];
  });
}

/**
 * What counts as the reply of an agent under a contract, for the server's output check and the
 * client's alike (issue 4 "Output contracts"): the data parts of an artifact or message (a
 * structured reply is data: the target is told to "respond with JSON matching this schema",
 * seeds/a2a-contracts.md "Contract context injection"), or, when there are none, text parts that
 * hold JSON (a model agent answers in text).
 */
import type { Part } from '../protocol/index.js';

/** One reply value and the index of the part that carries it. */
export interface ReplyValue {
  index: number;
  value: unknown;
}

/** The reply values of a list of parts; see the file comment. */
export function replyValues(parts: readonly Part[]): ReplyValue[] {
  const data = parts.flatMap((part, index) => ('data' in part ? [{ index, value: part.data }] : []));
  if (data.length > 0) return data;
  const out: ReplyValue[] = [];
  parts.forEach((part, index) => {
    if (!('text' in part) || typeof part.text !== 'string') return;
    const text = part.text.trim();
    if (!text.startsWith('{') && !text.startsWith('[')) return;
    try {
      out.push({ index, value: JSON.parse(text) as unknown });
    } catch {
      // Prose that happens to start with a brace is not a structured reply.
    }
  });
  return out;
}

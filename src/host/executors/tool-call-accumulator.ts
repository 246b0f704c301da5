/**
 * Collects the tool calls of one streamed chat completion. A streamed call arrives as deltas of
 * `choices[0].delta.tool_calls[]`: the first delta of a call carries its `index`, `id` and
 * `function.name`, later ones only the `index` and a piece of `function.arguments`, which are
 * concatenated (OpenAI chat-completions streaming format, followed by compatible servers).
 */
import type { ChatToolCall } from './chat-messages.js';

/** The model sent a tool-call delta Concord cannot read; the message says what was wrong. */
export class ToolCallDeltaError extends Error {
  override readonly name = 'ToolCallDeltaError';
}

interface Pending {
  id: string | undefined;
  name: string;
  arguments: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Accumulates tool-call deltas by index; `calls()` gives the whole calls, in index order. */
export class ToolCallAccumulator {
  private readonly pending = new Map<number, Pending>();
  private lastIndex: number | undefined;

  /** How many calls were seen so far. */
  get size(): number {
    return this.pending.size;
  }

  /** Adds the `tool_calls` array of one delta (or of a whole non-streamed message). */
  add(toolCalls: unknown): void {
    if (toolCalls === undefined || toolCalls === null) return;
    if (!Array.isArray(toolCalls)) {
      throw new ToolCallDeltaError(`tool_calls is not an array: ${JSON.stringify(toolCalls).slice(0, 120)}`);
    }
    for (const [position, entry] of toolCalls.entries()) {
      if (!isObject(entry)) {
        throw new ToolCallDeltaError(`tool_calls[${position}] is not an object`);
      }
      const index = this.indexOf(entry, position);
      const fn = entry.function;
      if (fn !== undefined && !isObject(fn)) {
        throw new ToolCallDeltaError(`tool_calls[${position}].function is not an object`);
      }
      const name = fn?.name;
      const args = fn?.arguments;
      if (name !== undefined && name !== null && typeof name !== 'string') {
        throw new ToolCallDeltaError(`tool_calls[${position}].function.name is not a string`);
      }
      let piece: string;
      if (args === undefined || args === null) piece = '';
      else if (typeof args === 'string') piece = args;
      // A few servers send the arguments already parsed; they are the same JSON either way.
      else if (isObject(args)) piece = JSON.stringify(args);
      else throw new ToolCallDeltaError(`tool_calls[${position}].function.arguments is not a string`);
      const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined;
      const call = this.pending.get(index) ?? { id: undefined, name: '', arguments: '' };
      call.id ??= id;
      // The name comes whole in the first delta; some servers repeat it, which must not double it.
      if (typeof name === 'string' && name !== '' && call.name !== name) call.name += name;
      call.arguments += piece;
      this.pending.set(index, call);
      this.lastIndex = index;
    }
  }

  /**
   * Deltas without an `index` (some compatible servers omit it): a delta with a new `id` starts a
   * call, one without continues the last call.
   */
  private indexOf(entry: Record<string, unknown>, position: number): number {
    const index = entry.index;
    if (typeof index === 'number' && Number.isInteger(index) && index >= 0) return index;
    if (index !== undefined && index !== null) {
      throw new ToolCallDeltaError(`tool_calls[${position}].index is not a non-negative integer`);
    }
    const id = typeof entry.id === 'string' ? entry.id : undefined;
    const known = [...this.pending.entries()].find(([, call]) => id !== undefined && call.id === id);
    if (known !== undefined) return known[0];
    if (id === undefined && this.lastIndex !== undefined) return this.lastIndex;
    return this.pending.size === 0 ? 0 : Math.max(...this.pending.keys()) + 1;
  }

  /** The calls, in index order; a call the server sent no id for gets one, so its result can answer it. */
  calls(): ChatToolCall[] {
    return [...this.pending.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id ?? `call_${index}`,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
  }
}

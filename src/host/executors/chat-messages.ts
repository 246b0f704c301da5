/**
 * Turns an A2A task into the `messages` array of an OpenAI-compatible chat completion: the system
 * prompt (plus any context the host injects), the task's earlier turns, then the new message.
 */
import type { Message, Part } from '../../protocol/index.js';
import type { RequestContext } from '../../server/index.js';

/** One function call the model asked for (OpenAI `tool_calls[]` entry). */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * One chat-completions message (the subset Concord sends): plain turns, an assistant turn that
 * asked for tools (its `content` is null when it said nothing), and a tool's result.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * Metadata key marking an agent status message as progress chatter ("Asking researcher"): it
 * stays in the task's history for clients, but is not a turn of the conversation with the model.
 */
export const PROGRESS_METADATA_KEY = 'concord/progress';

/** What goes into the system message. */
export interface SystemPromptInput {
  /** The definition's prompt ('' when none). */
  systemPrompt: string;
  /** Extra context appended for this request (e.g. contract descriptions); may be empty. */
  extra?: string | undefined;
}

/**
 * A part as model input. Text as is; data as JSON text (A2A 1.0 §4.1.6 DataPart carries
 * structured input the model can read as JSON); files the model cannot fetch are named so the
 * model knows they exist rather than silently dropped.
 */
function partText(part: Part): string | undefined {
  if (part.text !== undefined) return part.text;
  if (part.data !== undefined) return JSON.stringify(part.data);
  const label = [part.filename, part.mediaType].filter((s) => s !== undefined && s !== '').join(', ');
  if (part.url !== undefined) return `[file${label === '' ? '' : ` (${label})`}: ${part.url}]`;
  if (part.raw !== undefined) return `[file${label === '' ? '' : ` (${label})`} attached, content not shown]`;
  return undefined;
}

/** The text of a message, parts separated by blank lines. */
export function messageText(message: Message): string {
  const texts: string[] = [];
  for (const part of message.parts) {
    const text = partText(part);
    if (text !== undefined && text !== '') texts.push(text);
  }
  return texts.join('\n\n');
}

function chatTurn(message: Message): ChatMessage | undefined {
  const content = messageText(message);
  if (content === '') return undefined;
  return { role: message.role === 'ROLE_AGENT' ? 'assistant' : 'user', content };
}

/** The full `messages` array for one request. */
export function buildChatMessages(context: RequestContext, system: SystemPromptInput): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const prompt = [system.systemPrompt.trim(), system.extra?.trim() ?? '']
    .filter((s) => s !== '')
    .join('\n\n');
  if (prompt !== '') messages.push({ role: 'system', content: prompt });
  for (const earlier of context.task?.history ?? []) {
    // The stored task predates this message, but a store may already hold it: never send it twice.
    if (earlier.messageId === context.message.messageId) continue;
    if (earlier.metadata?.[PROGRESS_METADATA_KEY] === true) continue;
    const turn = chatTurn(earlier);
    if (turn !== undefined) messages.push(turn);
  }
  // The new message is always sent, even when empty, so the model answers this turn.
  messages.push({ role: 'user', content: messageText(context.message) });
  return messages;
}

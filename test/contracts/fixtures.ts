/**
 * Shared inputs of the contracts tests: the seed's research-bot section and message builders for
 * each envelope carrier.
 */
import type { Message, Part } from '../../src/protocol/index.js';
import { CONTRACT_MEDIA_TYPE, type ContractSection } from '../../src/contracts/index.js';

/** OpenClaw PR #19293 a2a-contracts.md "Declaring contracts", verbatim. */
export const RESEARCH_SECTION = {
  allowFreeform: true,
  contracts: {
    'research.request': {
      description: 'Submit a research query',
      input: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Research query' },
          depth: { type: 'string', enum: ['shallow', 'deep'] },
        },
        required: ['query'],
      },
      output: {
        type: 'object',
        properties: {
          findings: { type: 'string' },
          sources: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
} satisfies ContractSection;

/** The three ways an envelope travels (decision 0016). */
export type Carrier = 'text' | 'data' | 'media-type';

/** A message whose only part carries `envelope` the given way. */
export function envelopeMessage(envelope: Record<string, unknown>, carrier: Carrier): Message {
  return message([envelopePart(envelope, carrier)]);
}

/** A part carrying `envelope` the given way. */
export function envelopePart(envelope: Record<string, unknown>, carrier: Carrier): Part {
  if (carrier === 'text') return { text: JSON.stringify(envelope) };
  if (carrier === 'data') return { data: envelope };
  return { data: envelope, mediaType: CONTRACT_MEDIA_TYPE };
}

/** A user message with the given parts. */
export function message(parts: Part[]): Message {
  return { messageId: 'm-1', role: 'ROLE_USER', parts };
}

/** A plain text message. */
export function textMessage(text: string): Message {
  return message([{ text }]);
}

/** Runs `fn`, expecting it to throw; returns what it threw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, got a return');
}

/**
 * Agent definitions for the card tests, shaped as the host loader produces them. The ProcessOrder
 * one is read from the frontmatter of the seed's example agent (Shaman's agent-card.md), parsed with
 * `yaml` as the loader does, so the test pins what that markdown must yield.
 */
import { parse } from 'yaml';
import type { AgentDefinition } from '../../src/card/index.js';
import type { SecurityScheme } from '../../src/protocol/index.js';

/** The example agent markdown of Shaman's agent-card.md "Shaman Implementation". */
export const PROCESS_ORDER_MD = `---
name: ProcessOrder
exposed: true
description: Processes incoming orders from external partners
model: gpt-4-turbo
temperature: 0.7
tags: ["order", "processing", "inventory"]
mcpServers:
  order-db:
    - "create_order"
    - "validate_inventory"
---

You are an order processing specialist...
`;

/** The seed agent as a normalised definition (defaults: version 1.0.0, no skills, freeform). */
export function processOrderDefinition(): AgentDefinition {
  const [, yamlText = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(PROCESS_ORDER_MD) ?? [];
  const fm = parse(yamlText) as Record<string, unknown>;
  return {
    id: fm.name as string,
    name: fm.name as string,
    description: fm.description as string,
    version: '1.0.0',
    exposed: fm.exposed as boolean,
    systemPrompt: body.trim(),
    model: fm.model as string,
    temperature: fm.temperature as number,
    tags: fm.tags as string[],
    mcpServers: Object.entries(fm.mcpServers as Record<string, string[]>).map(([server, tools]) => ({
      server,
      field: `/mcpServers/${server}`,
      tools: tools.map((name, index) => ({ name, field: `/mcpServers/${server}/${index}` })),
    })),
    skills: [],
    a2a: { allowFreeform: true, contracts: {} },
    card: {},
    source: { file: '/agents/process-order.md', line: 1 },
  };
}

/** A definition with written skills and typed contracts (OpenClaw PR #19293 a2a-contracts.md). */
export function researchDefinition(): AgentDefinition {
  return {
    id: 'research-bot',
    name: 'Research Bot',
    description: 'Answers research questions with sources',
    version: '2.0.0',
    exposed: true,
    systemPrompt: '',
    tags: ['research'],
    skills: [
      {
        id: 'summarise',
        name: 'Summarise',
        description: 'Summarises a document',
        tags: ['summary'],
        examples: ['Summarise this PDF'],
        security: [{ bearer: ['docs:read'] }],
      },
      {
        id: 'internal-audit',
        name: 'Internal audit',
        description: 'Audits the research log',
        tags: ['audit'],
        extended: true,
      },
    ],
    a2a: {
      allowFreeform: true,
      contracts: {
        'research.request': {
          description: 'Submit a research query',
          input: { type: 'object', required: ['query'] },
          output: { type: 'object' },
        },
        'research.query-v1': {
          input: { type: 'object' },
          deprecated: true,
          deprecatedMessage: 'Use research.request for improved source control',
          supersededBy: 'research.request',
        },
      },
    },
    card: {},
    source: { file: '/etc/concord/concord.config.json5', line: 12 },
  };
}

/** The organisation bearer scheme of Shaman's agent-card.md "Security", in canonical form. */
export const BEARER: Record<string, SecurityScheme> = {
  bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
};

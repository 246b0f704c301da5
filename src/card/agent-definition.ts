/**
 * An agent definition after loading: what a markdown file (YAML frontmatter + system prompt body)
 * or a JSON5 host-config entry (`agents.list[]`) says about one agent, normalised, with defaults
 * applied. The host loader produces it; the card builder and the executors consume it. Nothing in
 * here is wire format: cards are built from it by `buildAgentCard`.
 */

/** Where a definition (or one of its fields) came from, for error messages. */
export interface SourceLocation {
  /** Absolute path of the file. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** JSON Pointer of the definition within its file ('' for markdown), for locating its fields. */
  pointer?: string;
}

/** A JSON Schema document (draft 2020-12), as written in the definition. */
export type JsonSchema = Record<string, unknown> | boolean;

/** One typed message contract (OpenClaw PR #19293 a2a-contracts.md "Contract schema reference"). */
export interface ContractDefinition {
  description?: string;
  input?: JsonSchema;
  output?: JsonSchema;
  requiresApproval?: boolean;
  version?: string;
  deprecated?: boolean;
  deprecatedMessage?: string;
  supersededBy?: string;
  /** What a reply that misses `output` does (default: the section's); not published. */
  outputPolicy?: 'fail' | 'warn';
}

/** An agent on another host, named in `a2a.remoteAgents`. */
export interface RemoteAgentDefinition {
  /** Its base URL (http or https). */
  url: string;
  /** What it is for; default: its card's description. */
  description?: string;
}

/** The `a2a` section (OpenClaw PR #19293 a2a-contracts.md "Declaring contracts"). */
export interface A2ASection {
  /** Plain-text messages accepted (default true). */
  allowFreeform: boolean;
  /** What a reply that misses its contract's output schema does (absent: `fail`). */
  outputPolicy?: 'fail' | 'warn';
  /** Agents on other hosts this agent may send to; model agents get them as tool targets. */
  remoteAgents?: RemoteAgentDefinition[];
  /** Contract name -> contract, in declaration order. */
  contracts: Record<string, ContractDefinition>;
}

/**
 * Security a definition asks for, by scheme name as declared in the host config's
 * `security.schemes`: each entry is one alternative (OR across entries, AND within one), mapping a
 * scheme name to the scopes it needs (A2A 1.0 §4.4.1 `securityRequirements`).
 */
export type SecurityRequirementInput = Record<string, string[]>;

/** A skill written in the definition (the card's skill list is built from these). */
export interface SkillDefinition {
  /** Defaults to a slug of `name`. */
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  /** Requirements for messages that invoke this skill, on top of the agent's. */
  security?: SecurityRequirementInput[];
  /** Listed only in the authenticated extended card (A2A 1.0 §3.1.11), not the public one. */
  extended?: boolean;
}

/** A tool an agent may use, as its definition names it (for errors found when the host starts). */
export interface McpToolUse {
  name: string;
  /** JSON Pointer of the name in the definition's file, and its line. */
  field: string;
  line?: number;
}

/**
 * One `mcpServers` entry (Shaman: server name -> tool names, or `{command, args, tools}`): an MCP
 * server a model agent may use, and which of its tools.
 */
export interface McpServerUse {
  /** A key of the host config's `mcpServers`, or, with `launch`, the name the agent gives its own server. */
  server: string;
  /** The tools the agent may use; undefined (an inline server without `tools`) means all it offers. */
  tools?: McpToolUse[];
  /** A stdio server the definition starts itself, run in the definition file's directory. */
  launch?: { command: string; args: string[] };
  /** JSON Pointer of the entry in the definition's file, and its line. */
  field: string;
  line?: number;
}

/** Fields of the generated card the definition may set directly (the `card:` block). */
export interface CardOverrides {
  provider?: { organization: string; url: string };
  iconUrl?: string;
  documentationUrl?: string;
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
}

/** One agent, loaded and normalised; see the file comment. */
export interface AgentDefinition {
  /** Unique in the host: the config `id`, or the markdown `name`. Used in `/agents/<id>`. */
  id: string;
  name: string;
  description: string;
  /** The agent's own version (default "1.0.0"). */
  version: string;
  /** Listed and reachable on the public listener (default false, as in the seed's docs). */
  exposed: boolean;
  /** The markdown body, or the config entry's `systemPrompt`; '' when none. */
  systemPrompt: string;
  /** Model name for a model-backed agent (OpenAI-compatible chat completions). */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  tags: string[];
  /** MCP servers a model agent may use, with the tools it may call on each (decision 0023). */
  mcpServers?: McpServerUse[];
  skills: SkillDefinition[];
  a2a: A2ASection;
  /** Absolute path of the module exporting the executor, for a code agent. */
  handler?: string;
  /** Agent-level requirements; absent means the host's organisation-wide ones. */
  security?: SecurityRequirementInput[];
  card: CardOverrides;
  /** A2A extensions the agent enables, by the host extension's name, with their settings as written. */
  extensions?: Record<string, unknown>;
  /** Whether a repeated messageId is a retry (decision 0133); absent: the host config's default. */
  idempotency?: { messageId?: boolean };
  /** Where the definition was written. */
  source: SourceLocation;
}

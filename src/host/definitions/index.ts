/**
 * Loading a host's definitions: agent markdown files and `concord.config.json5`, validated against
 * schemas/agent-definition.schema.json and schemas/host-config.schema.json.
 */
export { loadHost, type LoadHostOptions } from './load-host.js';
export { DefinitionError, formatProblem, type DefinitionProblem } from './definition-error.js';
export { createJson5Locator, type Json5Locator, type DuplicateKey } from './json5-locator.js';

/**
 * Input media type check (A2A 1.0 §3.1.1 SendMessage: a media type given in the message's parts
 * that the agent does not support results in ContentTypeNotSupportedError, -32005). What the
 * agent supports is what its card says: the invoked skill's `inputModes`, or the card's
 * `defaultInputModes` (§4.4, skills override the defaults). Liberal in what it reads
 * (decision 0141):
 * - only a `mediaType` the client gave is checked: a text or data part without one is not
 *   refused (the spec's words are "a Media Type provided in the request's message parts"), nor
 *   a contract envelope (`application/vnd.concord.contract+json`), which the contract gate owns;
 * - a message naming no skill may be meant for any of them, so it is held to the defaults and
 *   every skill's modes together;
 * - `type/*` and `*\/*` match, parameters and case are ignored, and `application/json` covers
 *   the `+json` structured-syntax types (RFC 6839 §3.1: they are JSON);
 * - an empty list, or one holding a name that is not a media type (the legacy `"text"`), says
 *   nothing Concord can check, so it admits everything.
 */
import { CONTRACT_MEDIA_TYPE } from '../../contracts/index.js';
import { A2AError, type AgentCard, type SendMessageRequest } from '../../protocol/index.js';
import { invokedSkill } from './invoked-skill.js';
import { checkOutputModes, mediaTypesMatch } from './output-modes.js';

/** Both media type checks of a send: the client's accepted output modes, then the parts' types. */
export function checkSendMediaTypes(request: SendMessageRequest, card: AgentCard): void {
  checkOutputModes(request.configuration?.acceptedOutputModes, card.defaultOutputModes);
  checkInputModes(request, card);
}

/** Throws -32005 naming the first part whose `mediaType` the agent's input modes do not cover. */
export function checkInputModes(request: SendMessageRequest, card: AgentCard): void {
  const parts = request.message.parts;
  // The common message carries no media type at all: one pass, no allocation.
  let first = 0;
  while (first < parts.length && !declared(parts[first]!.mediaType)) first++;
  if (first === parts.length) return;
  const skillId = invokedSkill(request);
  const modes = inputModes(card, skillId);
  if (modes === undefined) return;
  for (let i = first; i < parts.length; i++) {
    const type = parts[i]!.mediaType;
    if (!declared(type) || modes.some((mode) => covers(mode, type))) continue;
    const skill = skillId === undefined ? '' : ` for skill ${skillId}`;
    throw new A2AError(
      'ContentTypeNotSupportedError',
      `Incompatible content types: media type ${type} of /message/parts/${i} is not supported by this agent${skill} (input modes: ${modes.join(', ')})`,
      {
        metadata: {
          mediaType: type,
          supportedInputModes: modes.join(','),
          ...(skillId === undefined ? {} : { skillId }),
        },
        violations: [
          { field: `/message/parts/${i}/mediaType`, description: `${type} is not one of the input modes` },
        ],
      },
    );
  }
}

/**
 * True for a media type this check is about: one the client gave, other than Concord's contract
 * envelope type, which the contract gate reads and answers for (OpenClaw PR #19293 a2a-contracts.md).
 */
function declared(type: string | undefined): type is string {
  if (type === undefined || type.trim() === '') return false;
  return type.split(';')[0]!.trim().toLowerCase() !== CONTRACT_MEDIA_TYPE;
}

/** The modes a message is held to, or undefined when they admit everything. */
function inputModes(card: AgentCard, skillId: string | undefined): string[] | undefined {
  const skill = skillId === undefined ? undefined : card.skills.find((s) => s.id === skillId);
  let modes: string[];
  if (skill !== undefined) {
    modes =
      skill.inputModes !== undefined && skill.inputModes.length > 0
        ? skill.inputModes
        : card.defaultInputModes;
  } else {
    modes = [...card.defaultInputModes];
    for (const each of card.skills) if (each.inputModes !== undefined) modes.push(...each.inputModes);
  }
  if (modes.length === 0 || modes.some((mode) => !mode.includes('/'))) return undefined;
  return modes;
}

function covers(mode: string, type: string): boolean {
  if (mediaTypesMatch(mode, type)) return true;
  const m = mode.split(';')[0]!.trim().toLowerCase();
  return m === 'application/json' && type.split(';')[0]!.trim().toLowerCase().endsWith('+json');
}

/**
 * The reply of an AAP skill: the response object checked against the skill's response schema
 * before it leaves (a dealer bug is INTERNAL_ERROR, never an invalid payload on the wire), then
 * put in the part the buyer accepts (A2A 1.0 §3.2.2 `acceptedOutputModes`): the typed DataPart
 * with the response media type when the buyer takes it or any JSON, else a text part with the
 * response's human-readable message when the buyer takes only text.
 */
import { A2AError, type Part } from '../../protocol/index.js';
import { aapError } from './aap-errors.js';
import { aapSchemas } from './schema-registry.js';
import type { AapSkill } from './skills.js';

/** What a skill handler returns: the response `data`, and an optional note. */
export interface AapResponse {
  data: Record<string, unknown>;
  message?: string;
  /** The response `type`, when the skill's schema allows several (defaults to the skill's). */
  type?: string;
}

function matches(accepted: string, offered: string): boolean {
  const a = accepted.split(';')[0]!.trim().toLowerCase();
  if (a === '*/*' || a === offered) return true;
  const [aType, aSub] = a.split('/');
  return aSub === '*' && offered.startsWith(`${aType}/`);
}

/** How the reply is sent: the typed data part, or text only. */
export function replyMode(skill: AapSkill, accepted: readonly string[] | undefined): 'data' | 'text' {
  if (accepted === undefined || accepted.length === 0) return 'data';
  const json = [skill.responseMediaType, 'application/json', 'application/vnd.autoagent+json'];
  if (accepted.some((a) => json.some((o) => matches(a, o)))) return 'data';
  if (accepted.some((a) => matches(a, 'text/plain'))) return 'text';
  throw new A2AError(
    'ContentTypeNotSupportedError',
    `${skill.id} answers ${skill.responseMediaType} (or JSON, or text/plain); none of ${accepted.join(', ')} is one of them`,
    {
      metadata: {
        acceptedOutputModes: accepted.join(','),
        supportedOutputModes: json.concat('text/plain').join(','),
      },
      violations: [
        {
          field: '/configuration/acceptedOutputModes',
          description: 'no overlap with the skill output modes',
        },
      ],
    },
  );
}

/** The checked reply parts for `response` in `mode`. */
export function replyParts(skill: AapSkill, response: AapResponse, mode: 'data' | 'text', now: Date): Part[] {
  const body: Record<string, unknown> = { type: response.type ?? skill.responseType, data: response.data };
  if (response.message !== undefined) body.message = response.message;
  const issues = aapSchemas().validate(skill.responseSchema, body);
  if (issues.length > 0) {
    throw aapError('INTERNAL_ERROR', `The dealer produced an invalid ${skill.responseType}`, {
      retryable: false,
      details: { violations: issues.slice(0, 5).map((i) => `${i.instancePath || '/'} ${i.message}`) },
      now,
    });
  }
  if (mode === 'text') return [{ text: response.message ?? JSON.stringify(response.data) }];
  return [{ data: body, mediaType: skill.responseMediaType }];
}

/**
 * `acceptedOutputModes` check (A2A 1.0 §3.2.2): when a client accepts none of the media types
 * the agent can produce, the send fails with ContentTypeNotSupportedError (-32005) instead of
 * running the agent for output the client cannot use. Wildcards (`text/*`, `*\/*`) match.
 */
import { A2AError } from '../../protocol/index.js';

/**
 * True when media type `accepted` covers `offered` (or the other way round): parameters ignored,
 * case-insensitive, `type/*` and `*\/*` wildcards on either side. Also the input-mode check's.
 */
export function mediaTypesMatch(accepted: string, offered: string): boolean {
  const a = accepted.split(';')[0]!.trim().toLowerCase();
  const o = offered.split(';')[0]!.trim().toLowerCase();
  if (a === '*/*' || o === '*/*' || a === o) return true;
  const [aType, aSub] = a.split('/');
  const [oType, oSub] = o.split('/');
  return (aSub === '*' && aType === oType) || (oSub === '*' && aType === oType);
}

/** Throws -32005 when `accepted` is non-empty and shares no media type with `offered`. */
export function checkOutputModes(accepted: string[] | undefined, offered: string[]): void {
  if (accepted === undefined || accepted.length === 0 || offered.length === 0) return;
  for (const a of accepted) for (const o of offered) if (mediaTypesMatch(a, o)) return;
  throw new A2AError(
    'ContentTypeNotSupportedError',
    `Incompatible content types: the accepted output modes (${accepted.join(', ')}) are not supported; this agent produces ${offered.join(', ')}`,
    {
      metadata: { acceptedOutputModes: accepted.join(','), supportedOutputModes: offered.join(',') },
      violations: [
        {
          field: '/configuration/acceptedOutputModes',
          description: 'no overlap with the agent output modes',
        },
      ],
    },
  );
}

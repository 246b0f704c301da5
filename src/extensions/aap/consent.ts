/**
 * The consent rules of the AAP lead skills (AAP v0.1 errors and behavior rules, seed error
 * table), checked after the schema: a grant whose scope does not cover the skill, whose
 * `granted_at` lies in the future or too far in the past, whose `consent_text` is empty, or that
 * another agent captured, is INVALID_CONSENT; a follow-up channel the grant does not allow (the
 * customer's `preferred_contact`, or no allowed channel that reaches the customer) is
 * CONTACT_CONSENT_REQUIRED. Choices where the sources disagree: decisions/0062-aap-profile.md.
 */
import { aapError } from './aap-errors.js';
import type { AapSkill } from './skills.js';

/** How old a grant may be and how far ahead of our clock it may be stamped. */
export interface ConsentPolicy {
  /** Grants older than this are expired (default 365 days). */
  maxAgeDays: number;
  /** Tolerated clock difference for `granted_at` in the future (default 5 minutes). */
  clockSkewMs: number;
}

/** The default consent policy. */
export const DEFAULT_CONSENT_POLICY: ConsentPolicy = { maxAgeDays: 365, clockSkewMs: 5 * 60_000 };

interface Grant {
  granted_at: string;
  allowed_channels: string[];
  consent_text: string;
  source_agent: string;
  scope: string[];
}

interface Customer {
  email?: string;
  phone?: string;
  preferred_contact?: string;
}

const DAY_MS = 86_400_000;

/** Throws the AAP refusal when a schema-valid lead request's consent does not allow it. */
export function checkConsent(
  skill: AapSkill,
  payload: Record<string, unknown>,
  now: Date,
  policy: ConsentPolicy,
): void {
  const scope = skill.consentScope;
  const grant = payload.consent as Grant | undefined;
  const customer = payload.customer as Customer | undefined;
  if (scope === undefined || grant === undefined) return;
  const invalid = (message: string, details: Record<string, unknown>): Error =>
    aapError('INVALID_CONSENT', message, { details, now });
  if (!grant.scope.includes(scope)) {
    throw invalid(`consent.scope does not cover ${skill.id}; it must include '${scope}'`, {
      instancePath: '/consent/scope',
      expected_scope: scope,
      received: grant.scope,
    });
  }
  if (grant.consent_text.trim() === '') {
    throw invalid('consent.consent_text is empty; send the verbatim text the user agreed to', {
      instancePath: '/consent/consent_text',
    });
  }
  const granted = Date.parse(grant.granted_at);
  if (granted > now.getTime() + policy.clockSkewMs) {
    throw invalid('consent.granted_at is in the future', {
      instancePath: '/consent/granted_at',
      received: grant.granted_at,
      now: now.toISOString(),
    });
  }
  if (granted < now.getTime() - policy.maxAgeDays * DAY_MS) {
    throw invalid(`consent has expired: it was granted more than ${policy.maxAgeDays} days ago`, {
      instancePath: '/consent/granted_at',
      received: grant.granted_at,
      max_age_days: policy.maxAgeDays,
    });
  }
  if (grant.source_agent !== payload.source_agent) {
    throw invalid('consent.source_agent is not the agent submitting the request', {
      instancePath: '/consent/source_agent',
      received: grant.source_agent,
      expected: payload.source_agent,
    });
  }
  if (customer === undefined) return;
  const allowed = new Set(grant.allowed_channels);
  const preferred = customer.preferred_contact;
  if (preferred !== undefined && preferred !== 'any' && !allowed.has(preferred)) {
    throw aapError(
      'CONTACT_CONSENT_REQUIRED',
      `customer.preferred_contact is ${preferred}, which consent.allowed_channels does not allow`,
      {
        details: {
          instancePath: '/customer/preferred_contact',
          channel: preferred,
          allowed_channels: grant.allowed_channels,
        },
        now,
      },
    );
  }
  const reachable = grant.allowed_channels.filter((channel) =>
    channel === 'email' ? customer.email !== undefined : customer.phone !== undefined,
  );
  if (reachable.length === 0) {
    throw aapError(
      'CONTACT_CONSENT_REQUIRED',
      'None of consent.allowed_channels reaches the customer (email needs customer.email; phone and sms need customer.phone)',
      {
        details: { instancePath: '/consent/allowed_channels', allowed_channels: grant.allowed_channels },
        now,
      },
    );
  }
}

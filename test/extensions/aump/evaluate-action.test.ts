// evaluateAction beyond the suite's cases: deny outranks escalate, determinism, every reason and
// path of a multiply-wrong action, unusable input, commitments, expired and revoked mandates.
import { describe, expect, it } from 'vitest';
import {
  createAumpRuntime,
  evaluateAction,
  validateAumpSchema,
  type Mandate,
  type ProposedAction,
} from '../../../src/extensions/aump/internal.js';
import { SUITE_NOW, suiteMandate } from './helpers.js';

const buyer = suiteMandate('marketplace-buyer.valid.json');
const shopping = suiteMandate('delegated-shopping.valid.json');
const accept: ProposedAction = {
  type: 'accept_deal',
  summary: 'Accept 19 ping pong balls.',
  amount: { currency: 'USD', total_minor: 300 },
};

describe('evaluateAction', () => {
  it('denies rather than escalates when an action is both: only the deny reasons are given', () => {
    // Over budget (deny) while a required escalation condition holds (escalate).
    const evaluation = evaluateAction(
      buyer,
      { ...accept, amount: { currency: 'USD', total_minor: 900 } },
      { conditions: ['price_above_budget'], confidence: 0.1 },
      { now: SUITE_NOW },
    );
    expect(evaluation.decision).toBe('denied');
    expect(evaluation.reason_codes).toEqual(['hard_constraint_violation', 'price_above_budget']);
    expect(evaluation.paths).toEqual(['$.authority.budget.max_total_minor']);
    expect(evaluation.required_escalation).toBeUndefined();
    // Without the deny, the same context escalates, with both escalation reasons in order.
    const escalated = evaluateAction(
      buyer,
      accept,
      { conditions: ['price_above_budget'], confidence: 0.1 },
      { now: SUITE_NOW },
    );
    expect(escalated).toMatchObject({
      decision: 'requires_escalation',
      reason_codes: ['escalation_required', 'confidence_below_threshold'],
      paths: ['$.escalation.required_conditions', '$.escalation.confidence_threshold'],
      required_escalation: { channel: 'app', expires_at: '2026-04-25T18:15:00.000Z' },
    });
  });

  it('is deterministic: the same inputs give the same bytes', () => {
    const action: ProposedAction = {
      ...accept,
      disclosures: [{ field: 'preferences.private_notes', content: 'x' }],
    };
    const inputs: Parameters<typeof evaluateAction> = [
      buyer,
      action,
      { confidence: 0.2 },
      { now: SUITE_NOW },
    ];
    const first = JSON.stringify(evaluateAction(...inputs));
    for (let i = 0; i < 5; i++) expect(JSON.stringify(evaluateAction(...inputs))).toBe(first);
    expect(
      JSON.stringify(
        evaluateAction(
          structuredClone(buyer),
          structuredClone(action),
          { confidence: 0.2 },
          { now: new Date(SUITE_NOW) },
        ),
      ),
    ).toBe(first);
  });

  it('collects every deny reason once, in order, with each path', () => {
    const evaluation = evaluateAction(
      buyer,
      {
        type: 'share_payment_credentials',
        summary: 'Everything wrong at once.',
        amount: { currency: 'EUR', total_minor: 9000 },
        disclosures: [
          { field: 'purpose.summary', content: 'fine' },
          { field: 'negotiation.reservation_price_minor', content: '5 USD' },
          { field: 'preferences.private_notes', content: 'secret' },
          { field: 'principal.display_name', content: 'not allowed under default deny' },
        ],
      },
      {},
      { now: SUITE_NOW },
    );
    expect(evaluation.decision).toBe('denied');
    expect(evaluation.reason_codes).toEqual([
      'scope_violation',
      'hard_constraint_violation',
      'currency_mismatch',
      'price_above_budget',
      'disclosure_denied',
    ]);
    expect(evaluation.paths).toEqual([
      '$.authority.permissions',
      '$.authority.prohibited_actions',
      '$.authority.budget.currency',
      '$.authority.budget.max_total_minor',
      '$.proposed_action.disclosures[1].field',
      '$.proposed_action.disclosures[2].field',
      '$.proposed_action.disclosures[3].field',
    ]);
    expect(evaluation.summary).toBe(
      'The proposed action is denied by mandate policy: scope_violation, hard_constraint_violation, currency_mismatch, price_above_budget, disclosure_denied',
    );
    expect(validateAumpSchema('action-evaluation', evaluation)).toEqual([]);
  });

  it('denies spending under a mandate without a budget', () => {
    const { budget: _b, ...authority } = buyer.authority;
    const noBudget: Mandate = { ...buyer, authority };
    const evaluation = evaluateAction(noBudget, accept, {}, { now: SUITE_NOW });
    expect(evaluation).toMatchObject({
      decision: 'denied',
      reason_codes: ['scope_violation'],
      paths: ['$.authority.budget'],
    });
  });

  it('escalates commitments of supervised mandates and those that need the trusted UI, unless approved there', () => {
    const supervised: Mandate = {
      ...shopping,
      authority: { ...shopping.authority, permissions: [...shopping.authority.permissions, 'place_order'] },
    };
    const order: ProposedAction = {
      type: 'place_order',
      summary: 'Order the shoes.',
      amount: { currency: 'USD', total_minor: 12900 },
    };
    expect(evaluateAction(supervised, order, {}, { now: SUITE_NOW })).toMatchObject({
      decision: 'requires_escalation',
      paths: ['$.authority.mode', '$.authority.requires_trusted_ui_for_commitment'],
    });
    // Approved in the trusted UI, the supervised mode still escalates.
    expect(
      evaluateAction(supervised, order, { trusted_ui_approved: true }, { now: SUITE_NOW }).paths,
    ).toEqual(['$.authority.mode']);
    // A delegated mandate that needs the trusted UI escalates any commitment (commitment: true too).
    const delegated: Mandate = {
      ...buyer,
      authority: { ...buyer.authority, requires_trusted_ui_for_commitment: true },
    };
    expect(
      evaluateAction(delegated, { ...accept, type: 'make_offer', commitment: true }, {}, { now: SUITE_NOW })
        .decision,
    ).toBe('requires_escalation');
    expect(
      evaluateAction(delegated, accept, { trusted_ui_approved: true }, { now: SUITE_NOW }).decision,
    ).toBe('allowed');
  });

  it('denies everything under an expired, inactive or revoked mandate', () => {
    expect(evaluateAction(buyer, accept, {}, { now: new Date('2026-04-26T15:00:00Z') })).toMatchObject({
      decision: 'denied',
      reason_codes: ['mandate_expired'],
      paths: ['$.expires_at'],
    });
    const revoked: Mandate = { ...buyer, status: 'revoked' };
    expect(evaluateAction(revoked, accept, {}, { now: SUITE_NOW }).reason_codes).toEqual([
      'mandate_inactive',
    ]);
    // Revoked by its issuer after the fact: the runtime denies with mandate_revoked first.
    const runtime = createAumpRuntime({ mandates: [buyer], now: () => SUITE_NOW });
    expect(runtime.evaluate(buyer.id, accept).decision).toBe('allowed');
    runtime.revoke(buyer.id);
    expect(runtime.evaluate(buyer.id, accept)).toMatchObject({
      decision: 'denied',
      reason_codes: ['mandate_revoked'],
      paths: ['$.id'],
    });
    expect(runtime.evaluate('aump_mnd_unknown', accept)).toMatchObject({
      decision: 'denied',
      reason_codes: ['mandate_not_found'],
    });
  });

  it('denies unusable input with schema_invalid and the paths of what is wrong', () => {
    const bad = evaluateAction(
      buyer,
      { type: 'accept_deal', summary: 's', amount: { currency: 'usd', total_minor: -1 } } as ProposedAction,
      { conditions: 'checkout_ready' } as never,
      { now: SUITE_NOW },
    );
    expect(bad.decision).toBe('denied');
    expect(bad.reason_codes).toEqual(['schema_invalid']);
    expect(bad.paths).toEqual([
      '$.proposed_action.amount.currency',
      '$.proposed_action.amount.total_minor',
      '$.context.conditions',
    ]);
    const { aump: _a, ...headless } = buyer;
    expect(evaluateAction(headless as Mandate, accept, {}, { now: SUITE_NOW })).toMatchObject({
      decision: 'denied',
      reason_codes: ['schema_invalid'],
      paths: ['$.aump'],
    });
  });
});

/**
 * AUMP mandate evaluations traced and counted (decision 0157): one `concord.mandate.evaluate`
 * span per evaluation, under the active context, with the decision as allow / escalate / deny,
 * and `concord.mandate.decisions` by decision. The runtime's evaluation (revocations, unknown
 * mandates) is one span with its final decision.
 */
import { describe, expect, it } from 'vitest';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import {
  createAumpRuntime,
  evaluateAction,
  type ProposedAction,
} from '../../src/extensions/aump/internal.js';
import { ATTR, METRIC, SPAN } from '../../src/telemetry/index.js';
import { SUITE_NOW, suiteMandate } from '../extensions/aump/helpers.js';
import { registerSdk } from './test-sdk.js';

const sdk = registerSdk({ contextManager: true });
const buyer = suiteMandate('marketplace-buyer.valid.json');
const accept: ProposedAction = {
  type: 'accept_deal',
  summary: 'Accept 19 ping pong balls.',
  amount: { currency: 'USD', total_minor: 300 },
};

describe('concord.mandate.evaluate', () => {
  it('records each decision on a span under the active context', async () => {
    sdk.exporter.reset();
    const parent = trace.getTracer('test').startSpan('agent work', {}, ROOT_CONTEXT);
    const decisions = context.with(trace.setSpan(ROOT_CONTEXT, parent), () => [
      evaluateAction(buyer, accept, {}, { now: SUITE_NOW }).decision,
      evaluateAction(buyer, accept, { conditions: ['price_above_budget'] }, { now: SUITE_NOW }).decision,
      evaluateAction(
        buyer,
        { ...accept, amount: { currency: 'USD', total_minor: 900 } },
        {},
        { now: SUITE_NOW },
      ).decision,
    ]);
    parent.end();
    expect(decisions).toEqual(['allowed', 'requires_escalation', 'denied']);
    const spans = (await sdk.spans()).filter((s) => s.name === SPAN.mandate);
    expect(spans.map((s) => s.attributes[ATTR.mandateDecision])).toEqual(['allow', 'escalate', 'deny']);
    for (const span of spans) {
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    }
  });

  it("traces the runtime's evaluation once, with the decision revocation makes", async () => {
    sdk.exporter.reset();
    const runtime = createAumpRuntime({ mandates: [buyer], now: () => SUITE_NOW });
    runtime.revoke(buyer.id);
    expect(runtime.evaluate(buyer.id, accept).decision).toBe('denied');
    expect(runtime.evaluate('aump_mnd_unknown', accept).decision).toBe('denied');
    const spans = (await sdk.spans()).filter((s) => s.name === SPAN.mandate);
    expect(spans.map((s) => s.attributes[ATTR.mandateDecision])).toEqual(['deny', 'deny']);
  });

  it('counts concord.mandate.decisions by decision', async () => {
    const points = await sdk.points(METRIC.mandateDecisions.name);
    const byDecision = new Map(points.map((p) => [p.attributes[ATTR.mandateDecision], p.value]));
    expect(Object.fromEntries(byDecision)).toEqual({ allow: 1, escalate: 1, deny: 3 });
  });
});

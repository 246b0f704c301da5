/**
 * AUMP mandate evaluations, traced and counted (decision 0157): a `concord.mandate.evaluate`
 * span around each evaluation with its decision, and `concord.mandate.decisions` by decision
 * (`allow`, `escalate`, `deny`: AUMP's `allowed`, `requires_escalation`, `denied`). The span goes
 * under the active context: an evaluation is a pure function with no call to take a parent from.
 */
import {
  activeContext,
  ATTR,
  endSpan,
  instruments,
  SPAN,
  SpanKind,
  startSpan,
} from '../../telemetry/index.js';
import type { ActionEvaluation } from './mandate-types.js';

const DECISIONS: Record<ActionEvaluation['decision'], string> = {
  allowed: 'allow',
  requires_escalation: 'escalate',
  denied: 'deny',
};

/** Runs one evaluation in its span and counts its decision. */
export function tracedEvaluation(evaluate: () => ActionEvaluation): ActionEvaluation {
  const span = startSpan(SPAN.mandate, SpanKind.INTERNAL, activeContext());
  let evaluation: ActionEvaluation;
  try {
    evaluation = evaluate();
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
  const decision = DECISIONS[evaluation.decision];
  if (span.isRecording()) span.setAttribute(ATTR.mandateDecision, decision);
  span.end();
  const meters = instruments();
  if (meters.on) meters.mandateDecisions.add(1, { [ATTR.mandateDecision]: decision });
  return evaluation;
}

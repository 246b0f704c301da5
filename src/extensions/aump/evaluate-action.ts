/**
 * Action evaluation (AUMP spec.md and schemas/action-evaluation.schema.json, Agentic-User-Mandate-Protocol/spec; decision 0055): is this agent, under
 * this mandate, allowed to take this action now? The answer is `allowed`, `requires_escalation`
 * (a human must review first) or `denied`, with reason codes and the mandate paths behind them.
 *
 * Every deny rule and every escalation rule is checked, and **deny outranks escalate**: an action
 * that is both is denied, with only the deny reasons. Reason codes and paths keep first-seen order
 * without duplicates. Nothing here reads a clock or a random source: the same mandate, action,
 * context and `now` give the same answer, byte for byte.
 */
import { tracedEvaluation } from './mandate-telemetry.js';
import { AUMP_VERSION } from './constants.js';
import { mandateHash } from './canonical-hash.js';
import { validateMandateSemantics } from './mandate.js';
import type {
  ActionEvaluation,
  Decision,
  EvaluationContext,
  Mandate,
  ProposedAction,
} from './mandate-types.js';
import { pointerToAumpPath, validateAumpSchema } from './schemas.js';

/** Action types that commit the principal (spec: commitment), besides `commitment: true`. */
export const COMMITMENT_ACTIONS: ReadonlySet<string> = new Set([
  'accept_deal',
  'complete_checkout',
  'place_order',
  'create_ap2_payment_mandate',
]);

/** Options of `evaluateAction`. */
export interface EvaluateOptions {
  /** The instant to evaluate at (expiry, escalation deadline); default: the current time. */
  now?: Date;
}

/** Reasons collected for one outcome, in first-seen order. */
class Reasons {
  readonly codes: string[] = [];
  readonly paths: string[] = [];

  add(path: string, ...codes: string[]): void {
    for (const code of codes) if (!this.codes.includes(code)) this.codes.push(code);
    if (!this.paths.includes(path)) this.paths.push(path);
  }

  get any(): boolean {
    return this.codes.length > 0;
  }
}

/**
 * Evaluates `action` under `mandate` in `context` at `options.now`; see the file comment. Traced
 * as a `concord.mandate.evaluate` span and counted by decision (decision 0157).
 */
export function evaluateAction(
  mandate: Mandate,
  action: ProposedAction,
  context: EvaluationContext = {},
  options: EvaluateOptions = {},
): ActionEvaluation {
  return tracedEvaluation(() => judgeAction(mandate, action, context, options));
}

/** `evaluateAction` untraced, for callers that trace a larger decision (the runtime's). */
export function judgeAction(
  mandate: Mandate,
  action: ProposedAction,
  context: EvaluationContext = {},
  options: EvaluateOptions = {},
): ActionEvaluation {
  const now = options.now ?? new Date();
  const deny = new Reasons();
  const escalate = new Reasons();
  const malformed = inputProblems(mandate, action, context);
  if (malformed.length > 0) {
    for (const path of malformed) deny.add(path, 'schema_invalid');
  } else {
    const semantics = validateMandateSemantics(mandate, { now });
    semantics.reason_codes.forEach((code, i) => deny.add(semantics.paths[i]!, code));
    checkAuthority(mandate, action, deny);
    checkAmount(mandate, action, deny);
    checkDisclosures(mandate, action, deny);
    checkEscalation(mandate, action, context, escalate);
  }
  const decision: Decision = deny.any ? 'denied' : escalate.any ? 'requires_escalation' : 'allowed';
  const reasons =
    decision === 'denied' ? deny : decision === 'requires_escalation' ? escalate : new Reasons();
  const response: ActionEvaluation = {
    aump: { version: versionOf(mandate), type: 'action_evaluation_response' },
    mandate_ref: refOf(mandate),
    decision,
    reason_codes: reasons.codes,
    paths: reasons.paths,
    summary: summaryOf(decision, reasons.codes),
  };
  if (decision === 'requires_escalation') response.required_escalation = escalationOf(mandate, action, now);
  return response;
}

/** Paths of whatever makes the inputs unusable: a mandate or an action off its schema, a bad context. */
function inputProblems(mandate: Mandate, action: ProposedAction, context: EvaluationContext): string[] {
  const paths = [
    ...validateAumpSchema('mandate', mandate).map((p) => pointerToAumpPath(p.path)),
    ...validateAumpSchema('proposed-action', action).map((p) =>
      pointerToAumpPath(p.path, '$.proposed_action'),
    ),
  ];
  const { conditions, confidence, trusted_ui_approved: approved } = context;
  if (
    conditions !== undefined &&
    !(Array.isArray(conditions) && conditions.every((c) => typeof c === 'string'))
  ) {
    paths.push('$.context.conditions');
  }
  if (confidence !== undefined && (typeof confidence !== 'number' || !Number.isFinite(confidence))) {
    paths.push('$.context.confidence');
  }
  if (approved !== undefined && typeof approved !== 'boolean') paths.push('$.context.trusted_ui_approved');
  return paths;
}

function checkAuthority(mandate: Mandate, action: ProposedAction, deny: Reasons): void {
  const { permissions, prohibited_actions: prohibited } = mandate.authority;
  if (!permissions.includes(action.type)) deny.add('$.authority.permissions', 'scope_violation');
  if (prohibited.includes(action.type)) deny.add('$.authority.prohibited_actions', 'scope_violation');
}

function checkAmount(mandate: Mandate, action: ProposedAction, deny: Reasons): void {
  const amount = action.amount;
  if (amount === undefined) return;
  const budget = mandate.authority.budget;
  if (budget === undefined) {
    // Spending without a budget is outside what the principal delegated.
    deny.add('$.authority.budget', 'scope_violation');
    return;
  }
  if (amount.currency !== budget.currency) {
    deny.add('$.authority.budget.currency', 'hard_constraint_violation', 'currency_mismatch');
  }
  if (amount.total_minor > budget.max_total_minor) {
    deny.add('$.authority.budget.max_total_minor', 'hard_constraint_violation', 'price_above_budget');
  }
}

/** A field the negotiation protects (by name or as a path suffix), or the private notes. */
function isProtected(mandate: Mandate, field: string): boolean {
  for (const name of mandate.negotiation.protected_fields ?? []) {
    if (field === name || field.endsWith(`.${name}`)) return true;
  }
  return field === 'private_notes' || field.endsWith('.private_notes');
}

function checkDisclosures(mandate: Mandate, action: ProposedAction, deny: Reasons): void {
  const { disclosure } = mandate;
  const allowed = new Set(disclosure.allowed.map((rule) => rule.field));
  const prohibited = new Set(disclosure.prohibited.map((rule) => rule.field));
  (action.disclosures ?? []).forEach(({ field }, index) => {
    if (
      prohibited.has(field) ||
      isProtected(mandate, field) ||
      (disclosure.default === 'deny' && !allowed.has(field))
    ) {
      deny.add(`$.proposed_action.disclosures[${index}].field`, 'disclosure_denied');
    }
  });
}

function checkEscalation(
  mandate: Mandate,
  action: ProposedAction,
  context: EvaluationContext,
  escalate: Reasons,
): void {
  const { escalation, authority } = mandate;
  const active = new Set(context.conditions ?? []);
  if (escalation.required_conditions.some((condition) => active.has(condition))) {
    escalate.add('$.escalation.required_conditions', 'escalation_required');
  }
  const threshold = escalation.confidence_threshold;
  if (threshold !== undefined && context.confidence !== undefined && context.confidence < threshold) {
    escalate.add('$.escalation.confidence_threshold', 'escalation_required', 'confidence_below_threshold');
  }
  const commitment = action.commitment === true || COMMITMENT_ACTIONS.has(action.type);
  if (commitment && authority.mode === 'supervised') escalate.add('$.authority.mode', 'escalation_required');
  // The schema's default for the flag is true: absent means a commitment needs the trusted UI.
  if (
    commitment &&
    authority.requires_trusted_ui_for_commitment !== false &&
    context.trusted_ui_approved !== true
  ) {
    escalate.add('$.authority.requires_trusted_ui_for_commitment', 'escalation_required');
  }
}

function versionOf(mandate: Mandate): string {
  const version = (mandate as { aump?: { version?: unknown } } | null)?.aump?.version;
  return typeof version === 'string' && version !== '' ? version : AUMP_VERSION;
}

function refOf(mandate: Mandate): ActionEvaluation['mandate_ref'] {
  const id = typeof (mandate as { id?: unknown } | null)?.id === 'string' ? mandate.id : '';
  const ref: ActionEvaluation['mandate_ref'] = { id, version: versionOf(mandate) };
  try {
    ref.hash = mandateHash(mandate);
  } catch {
    // Not JSON at all: no hash to name; the decision already says schema_invalid.
  }
  return ref;
}

function summaryOf(decision: Decision, codes: string[]): string {
  if (decision === 'allowed') return 'The proposed action is allowed by the active mandate.';
  if (decision === 'requires_escalation')
    return 'The proposed action requires trusted review before continuing.';
  return `The proposed action is denied by mandate policy: ${codes.join(', ')}`;
}

/** Who to ask, what, and until when (the mandate's first contact mode and approval timeout). */
function escalationOf(
  mandate: Mandate,
  action: ProposedAction,
  now: Date,
): NonNullable<ActionEvaluation['required_escalation']> {
  const out: NonNullable<ActionEvaluation['required_escalation']> = {
    prompt: `Review before the agent continues: ${action.summary}`,
  };
  const channel = mandate.escalation.contact_modes[0];
  if (channel !== undefined) out.channel = channel;
  const timeout = mandate.escalation.approval_timeout_seconds;
  if (timeout !== undefined) out.expires_at = new Date(now.getTime() + timeout * 1000).toISOString();
  return out;
}

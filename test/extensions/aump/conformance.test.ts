// The AUMP v0.1 conformance suite (29 cases, read from its manifest and run at its fixed time) and
// the spec's test vectors, against concord/extensions/aump's plain functions; plus the hash rule
// checked against the fixtures' own hashes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluateAction,
  mandateHash,
  parseMandate,
  sha256Of,
  validateAumpSchema,
  validateBridge,
  validateEvidenceEvent,
  validateMandateSemantics,
  type AumpSchemaName,
  type BridgeType,
  type EvaluationContext,
  type EvidenceEvent,
  type Mandate,
  type ProposedAction,
} from '../../../src/extensions/aump/internal.js';
import { CONFORMANCE, fixture, suiteMandate } from './helpers.js';

interface Case {
  id: string;
  category: 'schema' | 'mandate' | 'action' | 'evidence' | 'bridge';
  title: string;
  expect: string;
  schema?: string;
  path?: string;
  mandate?: string;
  action?: string;
  context?: EvaluationContext;
  reason_codes?: string[];
  bridge_type?: BridgeType;
}

const manifest = fixture<{
  defaults: { now: string };
  cases: Case[];
  aump_conformance: { spec_version: string };
}>('conformance/manifest.json');
const now = new Date(manifest.defaults.now);
const load = <T>(path: string): T => fixture<T>(`conformance/${path}`);

function run(c: Case): { valid: boolean; decision?: string; reason_codes?: string[] } {
  switch (c.category) {
    case 'schema':
      return { valid: validateAumpSchema(c.schema as AumpSchemaName, load(c.path!)).length === 0 };
    case 'mandate': {
      const mandate = parseMandate(load(c.path!), c.path);
      const check = validateMandateSemantics(mandate, { now });
      return { valid: check.valid, reason_codes: check.reason_codes };
    }
    case 'action': {
      const mandate = parseMandate(load(c.mandate!), c.mandate);
      const evaluation = evaluateAction(mandate, load<ProposedAction>(c.action!), c.context ?? {}, { now });
      // The response is itself a valid AUMP document.
      expect(validateAumpSchema('action-evaluation', evaluation), c.id).toEqual([]);
      return {
        valid: evaluation.decision === 'allowed',
        decision: evaluation.decision,
        reason_codes: evaluation.reason_codes,
      };
    }
    case 'evidence': {
      const check = validateEvidenceEvent(load<Mandate>(c.mandate!), load<EvidenceEvent>(c.path!), { now });
      return { valid: check.valid, reason_codes: check.reason_codes };
    }
    case 'bridge':
      return { valid: validateBridge(load(c.path!), c.bridge_type!).valid };
  }
}

describe('AUMP conformance suite (manifest)', () => {
  it('has the 29 cases of spec 0.1.0, evaluated at 2026-04-25T18:00:00Z', () => {
    expect(manifest.cases).toHaveLength(29);
    expect(manifest.aump_conformance.spec_version).toBe('0.1.0');
    expect(manifest.defaults.now).toBe('2026-04-25T18:00:00Z');
    const byCategory = Object.fromEntries(
      ['schema', 'mandate', 'action', 'evidence', 'bridge'].map((k) => [
        k,
        manifest.cases.filter((c) => c.category === k).length,
      ]),
    );
    expect(byCategory).toEqual({ schema: 7, mandate: 3, action: 8, evidence: 3, bridge: 8 });
  });

  for (const c of manifest.cases) {
    it(`${c.id}: ${c.title}`, () => {
      const outcome = run(c);
      if (c.category === 'action') expect(outcome.decision).toBe(c.expect);
      else expect(outcome.valid ? 'valid' : 'invalid').toBe(c.expect);
      // The suite compares reason codes as sets.
      if (c.reason_codes !== undefined)
        expect([...(outcome.reason_codes ?? [])].sort()).toEqual([...c.reason_codes].sort());
    });
  }
});

describe('AUMP spec test vectors', () => {
  const buyer = suiteMandate('marketplace-buyer.valid.json');

  it('valid-marketplace-buyer: the payload is a valid, usable mandate', () => {
    const vector = fixture<{ expect: string; payload: unknown }>(
      'spec/test-vectors/valid-marketplace-buyer.json',
    );
    expect(vector.expect).toBe('valid');
    expect(validateAumpSchema('mandate', vector.payload)).toEqual([]);
    expect(validateMandateSemantics(parseMandate(vector.payload), { now }).valid).toBe(true);
  });

  it('invalid-over-budget-action: denied by policy although the mandate is valid', () => {
    const vector = fixture<{ expect: string; reason: string; proposed_action: ProposedAction }>(
      'spec/test-vectors/invalid-over-budget-action.json',
    );
    const evaluation = evaluateAction(buyer, vector.proposed_action, {}, { now });
    expect(evaluation.decision).toBe(vector.expect);
    expect(evaluation.reason_codes).toContain(vector.reason);
  });

  it('evaluate-action-denied request/response: same decision, reason codes and paths', () => {
    const request = fixture<{ proposed_action: ProposedAction; context?: EvaluationContext }>(
      'spec/test-vectors/evaluate-action-denied-request.json',
    );
    const response = fixture<{ decision: string; reason_codes: string[]; paths: string[] }>(
      'spec/test-vectors/evaluate-action-denied-response.json',
    );
    expect(validateAumpSchema('action-evaluation', request)).toEqual([]);
    expect(validateAumpSchema('action-evaluation', response)).toEqual([]);
    const evaluation = evaluateAction(buyer, request.proposed_action, request.context ?? {}, { now });
    expect(evaluation).toMatchObject({
      decision: response.decision,
      reason_codes: response.reason_codes,
      paths: response.paths,
      mandate_ref: { id: 'aump_mnd_market_buyer_001', hash: mandateHash(buyer), version: '0.1.0' },
    });
  });
});

describe('mandate_hash', () => {
  it('equals the hashes the fixtures were written with', () => {
    expect(mandateHash(suiteMandate('marketplace-buyer.valid.json'))).toBe(
      'sha256-e27c2259f3135f02e1803950caacd8a28504b06ef47c081844e068199dee8c52',
    );
    expect(mandateHash(suiteMandate('marketplace-seller.valid.json'))).toBe(
      load<EvidenceEvent>('events/deal-accepted.mandate-mismatch.invalid.json').mandate_ref.hash,
    );
    expect(mandateHash(suiteMandate('delegated-shopping.valid.json'))).toBe(
      'sha256-d9515623a5b0648f3d0427305d7465a7cd7270ad5bcd502db7fd81b025cf9eb2',
    );
    const accepted = load<EvidenceEvent>('events/deal-accepted.valid.json');
    expect(mandateHash(suiteMandate('marketplace-buyer.valid.json'))).toBe(accepted.mandate_ref.hash);
    // The action hash of the evidence fixture is the same rule over the action document.
    expect(sha256Of(load('actions/accept-ping-pong.allowed.json'))).toBe(accepted.action?.hash);
  });

  it('hashes non-ASCII text as raw UTF-8 and numbers in ECMAScript form (decision 0055)', () => {
    const sha = (text: string): string =>
      `sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`;
    // Keys sorted by UTF-16 code units, no whitespace, "é" as its two UTF-8 bytes, not \u00e9.
    expect(sha256Of({ b: 'é', a: '日本', B: 1 })).toBe(sha('{"B":1,"a":"日本","b":"é"}'));
    // 1.0 in JSON text is the number 1; exponents and fractions as JavaScript prints them.
    expect(sha256Of(JSON.parse('{"n":1.0,"m":1e21,"f":0.10,"z":-0}'))).toBe(
      sha('{"f":0.1,"m":1e+21,"n":1,"z":0}'),
    );
    expect(mandateHash(JSON.parse('{"v":1.0}'))).toBe(mandateHash({ v: 1 }));
    // Not JSON: refused with the member's pointer, never hashed some SDK-specific way.
    expect(() => sha256Of({ a: undefined })).toThrow(/\/a/);
    expect(() => sha256Of({ a: Number.NaN })).toThrow(/\/a/);
    expect(() => sha256Of({ a: '\ud800' })).toThrow(/surrogate/);
  });

  it('changes with any change of the document, signatures included', () => {
    const buyer = suiteMandate('marketplace-buyer.valid.json');
    const tampered = structuredClone(buyer);
    tampered.authority.budget!.max_total_minor = 501;
    expect(mandateHash(tampered)).not.toBe(mandateHash(buyer));
    const signed = { ...buyer, signatures: [{ type: 'jws' as const, alg: 'ES256', kid: 'k1', value: 'x' }] };
    expect(mandateHash(signed)).not.toBe(mandateHash(buyer));
  });

  it('ships the suite schemas unchanged', () => {
    for (const name of ['mandate', 'profile', 'action-evaluation', 'evidence-event']) {
      const shipped = readFileSync(
        join(import.meta.dirname, `../../../schemas/aump/${name}.schema.json`),
        'utf8',
      );
      expect(shipped, name).toBe(readFileSync(join(CONFORMANCE, `schemas/${name}.schema.json`), 'utf8'));
    }
  });
});

/**
 * Requirement evaluation as an OR of ANDs (A2A 1.0 §4.4.1 `securityRequirements`), the helpers the host uses for unexposed
 * agents and per-skill requirements, requirement validation, and the card conversion.
 */
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/protocol/index.js';
import type { SecurityConfig } from '../../../src/host/host-config.js';
import {
  authorize,
  checkRequirements,
  evaluateRequirements,
  hasScope,
  mayReachUnexposed,
  satisfies,
  toCardRequirements,
  toCardSecurity,
  type HostIdentity,
  type SchemeIdentity,
} from '../../../src/host/security/index.js';

const proved: Record<string, SchemeIdentity> = {
  bearer: { principal: 'alice', scopes: ['read', 'write'] },
  apiKey: { principal: 'svc', scopes: ['admin'] },
};

describe('evaluateRequirements (OR of ANDs)', () => {
  it('is satisfied by the first alternative whose schemes are all proved with their scopes', () => {
    const result = evaluateRequirements(proved, [{ mtls: [] }, { apiKey: ['admin'] }, { bearer: [] }]);
    expect(result).toMatchObject({ satisfied: true, identity: { name: 'svc', scopes: ['admin'] } });
  });

  it('needs every scheme of an AND alternative; the principal is the first scheme’s, scopes the union', () => {
    const result = evaluateRequirements(proved, [{ bearer: ['write'], apiKey: ['admin'] }]);
    expect(result.satisfied).toBe(true);
    const identity = (result as { identity: HostIdentity }).identity;
    expect(identity.name).toBe('alice');
    expect(identity.scopes.sort()).toEqual(['admin', 'read', 'write']);
    expect(Object.keys(identity.schemes).sort()).toEqual(['apiKey', 'bearer']);
    const swapped = evaluateRequirements(proved, [{ apiKey: [], bearer: [] }]);
    expect((swapped as { identity: HostIdentity }).identity.name).toBe('svc');
  });

  it('fails an AND alternative when one of its schemes was not proved, without a scope shortfall', () => {
    expect(evaluateRequirements({ bearer: proved.bearer! }, [{ bearer: [], apiKey: [] }])).toEqual({
      satisfied: false,
      shortfall: undefined,
    });
  });

  it('reports the first alternative whose schemes were proved but lack scopes', () => {
    const result = evaluateRequirements(proved, [
      { mtls: [] },
      { bearer: ['delete', 'write', 'own'] },
      { apiKey: ['x'] },
    ]);
    expect(result).toEqual({
      satisfied: false,
      shortfall: [{ scheme: 'bearer', missing: ['delete', 'own'] }],
    });
  });

  it('treats empty requirements as satisfied, by the first proved scheme or by nobody', () => {
    expect(evaluateRequirements({}, [])).toEqual({ satisfied: true, identity: undefined });
    const result = evaluateRequirements(proved, []);
    expect((result as { identity: HostIdentity }).identity.name).toBe('alice');
  });
});

describe('authorize, satisfies, hasScope, mayReachUnexposed', () => {
  const identity: HostIdentity = {
    name: 'alice',
    scopes: ['read', 'write'],
    schemes: { bearer: proved.bearer! },
  };

  it('authorize passes a caller meeting a skill’s requirements and refuses others with 403 or 401', () => {
    expect(authorize(identity, [{ bearer: ['read'] }])?.name).toBe('alice');
    const denied = catchError(() => authorize(identity, [{ bearer: ['admin'] }]));
    expect(denied.type).toBe('PermissionDeniedError');
    expect(denied.message).toContain('admin');
    expect(denied.metadata).toEqual({ schemes: 'bearer', missingScopes: 'admin' });
    const unproved = catchError(() => authorize(identity, [{ apiKey: [] }]));
    expect(unproved.type).toBe('UnauthenticatedError');
    expect(unproved.message).toContain('"apiKey"');
    expect(catchError(() => authorize(undefined, [{ bearer: [] }])).type).toBe('UnauthenticatedError');
  });

  it('authorize treats an identity that is not a host identity as having proved no scheme', () => {
    expect(catchError(() => authorize({ name: 'x', scopes: ['read'] }, [{ bearer: [] }])).type).toBe(
      'UnauthenticatedError',
    );
  });

  it('satisfies accepts an identity or a scheme map', () => {
    expect(satisfies(identity, [{ bearer: ['write'] }])).toBe(true);
    expect(satisfies(identity, [{ bearer: ['admin'] }])).toBe(false);
    expect(satisfies(proved, [{ apiKey: ['admin'] }])).toBe(true);
    expect(satisfies(undefined, [{ apiKey: [] }])).toBe(false);
    expect(satisfies(undefined, [])).toBe(true);
  });

  it('hasScope and mayReachUnexposed look at the caller’s scopes', () => {
    const config = { schemes: {}, requirements: [], internalScope: 'agents:internal' } as SecurityConfig;
    expect(hasScope(identity, 'write')).toBe(true);
    expect(hasScope(identity, 'agents:internal')).toBe(false);
    expect(hasScope(undefined, 'write')).toBe(false);
    expect(hasScope({ name: 'no-scopes' }, 'write')).toBe(false);
    expect(mayReachUnexposed(identity, config)).toBe(false);
    expect(mayReachUnexposed({ name: 'ops', scopes: ['agents:internal'] }, config)).toBe(true);
    expect(mayReachUnexposed(undefined, config)).toBe(false);
  });
});

describe('requirement validation and card conversion', () => {
  const schemes: SecurityConfig['schemes'] = {
    bearer: { type: 'http', scheme: 'bearer', secret: 'private-secret', bearerFormat: 'opaque-ish' },
    apiKey: { type: 'apiKey', in: 'header', name: 'X-Key', keys: [{ key: 'k', principal: 'p', scopes: [] }] },
  };

  it('names the unknown scheme, the empty alternative and the bad scope list, with where', () => {
    expect(() => checkRequirements([{ bearer: [] }, { nope: [] }], schemes, 'agents.a.security')).toThrow(
      'agents.a.security[1]: unknown security scheme "nope" (declared: bearer, apiKey)',
    );
    expect(() => checkRequirements([{}], schemes, 'security.requirements')).toThrow(
      /security\.requirements\[0\]: an empty alternative would admit anonymous callers/,
    );
    expect(() =>
      checkRequirements([{ bearer: 'read' as unknown as string[] }], schemes, 'security.requirements'),
    ).toThrow('security.requirements[0].bearer: expected a list of non-empty scope names');
  });

  it('converts requirements to the proto form and copies the scope lists', () => {
    const scopes = ['read'];
    const converted = toCardRequirements([{ bearer: scopes, apiKey: [] }, { apiKey: ['admin'] }]);
    expect(converted).toEqual([
      { schemes: { bearer: { list: ['read'] }, apiKey: { list: [] } } },
      { schemes: { apiKey: { list: ['admin'] } } },
    ]);
    scopes.push('later');
    expect(converted[0]!.schemes.bearer!.list).toEqual(['read']);
  });

  it('declares schemes without secrets or keys, keeping a given bearer format', () => {
    const security = toCardSecurity({
      schemes,
      requirements: [{ apiKey: [] }],
      internalScope: 'agents:internal',
    });
    expect(security.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'opaque-ish' } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
    });
    expect(JSON.stringify(security)).not.toContain('private-secret');
    expect(() => toCardSecurity({ schemes, requirements: [{ other: [] }], internalScope: 'x' })).toThrow(
      /unknown security scheme "other"/,
    );
  });
});

function catchError(fn: () => unknown): A2AError {
  try {
    fn();
  } catch (error) {
    if (error instanceof A2AError) return error;
    throw error;
  }
  throw new Error('expected an A2AError');
}

// The A2A binding as plain functions: the card declaration, a2aMessage (a reference only, with its
// activation), and validateA2aMessage with the seed's error strings: tampered hashes, the full
// mandate in every position a message can carry data, missing activation, expired and revoked
// mandates.
import { describe, expect, it } from 'vitest';
import {
  AUMP_A2A_EXTENSION_URI as URI,
  a2aMessage,
  aumpAgentExtension,
  mandateHash,
  validateA2aMessage,
  validateBridge,
  type A2aMandateMessage,
  type Mandate,
} from '../../../src/extensions/aump/internal.js';
import { SUITE_NOW, suiteMandate } from './helpers.js';

const buyer = suiteMandate('marketplace-buyer.valid.json');
const seller = suiteMandate('marketplace-seller.valid.json');
const LEAK = 'A2A message must not embed full private AUMP mandate';
const META = `/message/metadata/${URI.replace(/\//g, '~1')}`;

function offer(): A2aMandateMessage {
  return a2aMessage(buyer, {
    messageId: 'msg_offer_001',
    role: 'user',
    parts: [{ text: 'I can offer 3 USD.' }],
  });
}

describe('aumpAgentExtension', () => {
  it('is the seed declaration, accepted by the suite bridge check', () => {
    expect(aumpAgentExtension()).toEqual({
      uri: URI,
      description: 'Supports AUMP mandate references and action evaluation.',
      required: false,
      params: { versions: ['0.1.0'] },
    });
    const card = {
      name: 'Buyer',
      version: '1.0.0',
      url: 'https://buyer.example/a2a',
      skills: [{ id: 's', name: 's', description: 's' }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      capabilities: { extensions: [aumpAgentExtension()] },
    };
    expect(validateBridge(card, 'a2a_extension')).toEqual({ valid: true, errors: [] });
  });
});

describe('a2aMessage', () => {
  it('attaches only the extension-scoped reference and the activation header', () => {
    const built = offer();
    expect(built).toEqual({
      headers: { 'A2A-Extensions': URI },
      message: {
        messageId: 'msg_offer_001',
        role: 'ROLE_USER',
        parts: [{ text: 'I can offer 3 USD.' }],
        extensions: [URI],
        metadata: {
          [URI]: {
            mandate_id: 'aump_mnd_market_buyer_001',
            mandate_hash: mandateHash(buyer),
            version: '0.1.0',
          },
        },
      },
    });
    expect(JSON.stringify(built)).not.toContain('reservation_price_minor');
    expect(validateA2aMessage(built, { mandates: [buyer], now: SUITE_NOW, strict: true })).toEqual({
      valid: true,
      errors: [],
      mandate_ref: built.message.metadata![URI],
      problems: [],
    });
    const reply = a2aMessage(seller, {
      role: 'agent',
      parts: [{ text: 'Deal.' }],
      contextId: 'c1',
      metadata: { other: 1 },
    });
    expect(reply.message).toMatchObject({ role: 'ROLE_AGENT', contextId: 'c1', metadata: { other: 1 } });
    expect(reply.message.messageId).toMatch(/^msg_[0-9a-f-]{36}$/);
  });
});

describe('validateA2aMessage', () => {
  it('rejects a tampered hash of a known mandate with exactly the seed error', () => {
    const built = offer();
    (built.message.metadata![URI] as { mandate_hash: string }).mandate_hash = `sha256-${'0'.repeat(64)}`;
    const result = validateA2aMessage(built, { mandates: [buyer, seller] });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(['A2A mandate hash mismatch']);
    expect(result.problems).toEqual([{ path: `${META}/mandate_hash`, message: 'A2A mandate hash mismatch' }]);
    // Nobody can check a hash without the mandate: an unknown mandate's reference is only shape-checked.
    expect(validateA2aMessage(built).valid).toBe(true);
    // A mandate changed after the reference was made no longer matches it either.
    const edited: Mandate = { ...buyer, authority: { ...buyer.authority, permissions: ['accept_deal'] } };
    expect(validateA2aMessage(offer(), { mandates: { [buyer.id]: edited } }).errors).toEqual([
      'A2A mandate hash mismatch',
    ]);
  });

  const positions: [string, (m: A2aMandateMessage['message'], mandate: Mandate) => void, string][] = [
    [
      'extension metadata (the suite case)',
      (m, x) => ((m.metadata![URI] as Record<string, unknown>).mandate = x),
      `${META}/mandate`,
    ],
    [
      'extension metadata, nested',
      (m, x) => ((m.metadata![URI] as Record<string, unknown>).details = { mandate: x }),
      `${META}/details/mandate`,
    ],
    [
      'extension metadata, as JSON text',
      (m, x) => ((m.metadata![URI] as Record<string, unknown>).mandate = JSON.stringify(x)),
      `${META}/mandate`,
    ],
    ['message metadata under another key', (m, x) => (m.metadata!.context = x), '/message/metadata/context'],
    [
      'message metadata, deep in an array',
      (m, x) => (m.metadata!.history = [{ steps: [{ attached: x }] }]),
      '/message/metadata/history/0/steps/0/attached',
    ],
    [
      'message metadata, legacy aump key',
      (m, x) => (m.metadata!.aump = { mandate: { id: x.id, private: true } }),
      '/message/metadata/aump/mandate',
    ],
    ['part metadata', (m, x) => (m.parts[0]!.metadata = { source: x }), '/message/parts/0/metadata/source'],
    ['a data part', (m, x) => m.parts.push({ data: x }), '/message/parts/1/data'],
    [
      'a data part, nested',
      (m, x) => m.parts.push({ data: { offer: 300, terms: { basis: x } } }),
      '/message/parts/1/data/terms/basis',
    ],
    [
      'a data part without its aump header',
      (m, x) => m.parts.push({ data: { ...x, aump: undefined } }),
      '/message/parts/1/data',
    ],
    [
      'a text part holding the JSON',
      (m, x) => m.parts.push({ text: JSON.stringify(x, null, 2) }),
      '/message/parts/1/text',
    ],
  ];
  for (const [where, put, pointer] of positions) {
    it(`rejects the full mandate in ${where}`, () => {
      const built = offer();
      put(built.message, structuredClone(buyer));
      const result = validateA2aMessage(JSON.parse(JSON.stringify(built)), { mandates: [buyer] });
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual([LEAK]);
      expect(result.problems[0]!.path).toBe(pointer);
    });
  }

  it('rejects a mandate in the request metadata when asked to scan it', () => {
    const result = validateA2aMessage(offer(), { requestMetadata: { trace: { m: buyer } } });
    expect(result.errors).toEqual([LEAK]);
    expect(result.problems[0]!.path).toBe('/metadata/trace/m');
  });

  it('keeps ordinary data that merely mentions mandates', () => {
    const built = offer();
    built.message.parts.push({
      data: { mandate: 'SEPA direct debit mandate ref 42', authority: { note: 'x' } },
    });
    built.message.metadata!.note = 'a mandate is private';
    expect(validateA2aMessage(built, { mandates: [buyer] }).valid).toBe(true);
  });

  it('reports a missing activation, extension list and metadata in the seed order and wording', () => {
    const bare = offer().message;
    expect(validateA2aMessage(bare).errors).toEqual(['missing A2A-Extensions activation for AUMP']);
    expect(
      validateA2aMessage({ headers: { 'A2A-Extensions': 'https://other.example/ext' }, message: bare })
        .errors,
    ).toEqual(['missing A2A-Extensions activation for AUMP']);
    // The 0.3 spelling and a list activate it too; header names are case-insensitive.
    expect(
      validateA2aMessage({ headers: { 'x-a2a-extensions': `https://a.example, ${URI}` }, message: bare })
        .valid,
    ).toBe(true);
    const { extensions: _e, metadata: _m, messageId: _i, ...empty } = bare;
    expect(validateA2aMessage({ headers: {}, message: empty }).errors).toEqual([
      'missing message.messageId',
      'missing A2A-Extensions activation for AUMP',
      'missing message.extensions AUMP URI',
      'missing extension-scoped AUMP message metadata',
    ]);
    const partial = offer();
    partial.message.metadata![URI] = { mandate_id: buyer.id };
    expect(validateA2aMessage(partial).errors).toEqual([
      'missing A2A AUMP metadata mandate_hash',
      'missing A2A AUMP metadata version',
    ]);
  });

  it('refuses references to expired, inactive and revoked mandates it knows, at the given time', () => {
    const later = new Date('2026-04-27T00:00:00Z');
    expect(validateA2aMessage(offer(), { mandates: [buyer], now: later }).errors).toEqual([
      'A2A mandate aump_mnd_market_buyer_001 expired at 2026-04-26T15:00:00Z',
    ]);
    const suspended: Mandate = { ...buyer, status: 'revoked' };
    const stale = a2aMessage(suspended, { messageId: 'm', parts: [{ text: 'x' }] });
    expect(validateA2aMessage(stale, { mandates: [suspended], now: SUITE_NOW }).errors).toEqual([
      'A2A mandate aump_mnd_market_buyer_001 is not active (status revoked)',
    ]);
    expect(validateA2aMessage(offer(), { revoked: new Set([buyer.id]) }).errors).toEqual([
      'A2A mandate aump_mnd_market_buyer_001 is revoked',
    ]);
  });

  it('in strict mode, refuses a hash that is not sha256- and 64 hex digits', () => {
    const placeholder = validateBridge(
      {
        headers: { 'A2A-Extensions': URI },
        message: {
          ...offer().message,
          metadata: { [URI]: { mandate_id: 'x', mandate_hash: 'sha256-example', version: '0.1.0' } },
        },
      },
      'a2a_message',
    );
    expect(placeholder.valid).toBe(true);
    const built = offer();
    (built.message.metadata![URI] as { mandate_hash: string }).mandate_hash = 'sha256-example';
    expect(validateA2aMessage(built, { strict: true }).errors).toEqual([
      'A2A mandate hash must be sha256- and 64 lowercase hex digits',
    ]);
  });
});

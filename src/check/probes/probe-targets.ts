/**
 * What the check learns from the agent's card JSON before it calls anything: the interfaces to
 * exercise (1.0 `supportedInterfaces`, the 0.3 `url` / `preferredTransport` /
 * `additionalInterfaces`; A2A 1.0 §8.3.2), the capability flags, the declared extensions and whether
 * the card asks for credentials. Read leniently from the JSON as served: a malformed card is the
 * card rules' finding, and the check still exercises whatever interfaces it can make out.
 */
import type { ProtocolVersion } from '../../protocol/index.js';

/** A binding the check speaks. */
export type ProbeBinding = 'JSONRPC' | 'HTTP+JSON';

/** One interface to exercise. */
export interface ProbeTarget {
  url: string;
  binding: ProbeBinding;
  version: ProtocolVersion;
  tenant?: string;
  /** Which card fields declared it (rules 4 and 5 judge these). */
  declaredBy: ('supportedInterfaces' | 'url' | 'additionalInterfaces')[];
  /** `JSONRPC 1.0 http://host/`, used in evidence. */
  label: string;
}

/** What the card promises. */
export interface CardPromises {
  streaming: boolean;
  pushNotifications: boolean;
  extendedCard: boolean;
  extensions: { uri: string; required: boolean }[];
  /** Security scheme names the card declares. */
  schemes: string[];
  /** True when the card lists security requirements (every call needs credentials). */
  requiresAuth: boolean;
}

/** An interface the check cannot exercise (gRPC, custom bindings, other versions). */
export interface UnusableInterface {
  url: string;
  binding: string;
  version: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `1.0`, `1.0.1`, `0.3.0` -> the Major.Minor the check speaks, else undefined. */
export function probeVersion(raw: string | undefined): ProtocolVersion | undefined {
  const match = /^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$/.exec(raw ?? '');
  if (match === null) return undefined;
  const mm = `${Number(match[1])}.${Number(match[2])}`;
  return mm === '1.0' || mm === '0.3' ? mm : undefined;
}

/** Collects the interfaces of every card seen, without duplicates, in card order. */
export class TargetSet {
  readonly targets: ProbeTarget[] = [];
  readonly unusable: UnusableInterface[] = [];

  private add(
    url: unknown,
    binding: unknown,
    version: unknown,
    tenant: unknown,
    source: ProbeTarget['declaredBy'][number],
  ): void {
    const u = str(url);
    const b = str(binding);
    const v = str(version);
    // gRPC endpoints are written host:port (A2A 1.0 §4.4.6), which is no URL.
    if (u === undefined || b === undefined || (b !== 'GRPC' && !URL.canParse(u))) return;
    const pv = probeVersion(v);
    if ((b !== 'JSONRPC' && b !== 'HTTP+JSON') || pv === undefined) {
      if (!this.unusable.some((x) => x.url === u && x.binding === b && x.version === (v ?? '')))
        this.unusable.push({ url: u, binding: b, version: v ?? '' });
      return;
    }
    const t = str(tenant);
    const existing = this.targets.find((x) => x.url === u && x.binding === b && x.version === pv);
    if (existing !== undefined) {
      if (!existing.declaredBy.includes(source)) existing.declaredBy.push(source);
      return;
    }
    const target: ProbeTarget = {
      url: u,
      binding: b,
      version: pv,
      declaredBy: [source],
      label: `${b} ${pv} ${u}`,
    };
    if (t !== undefined && t !== '') {
      target.tenant = t;
      target.label += ` (tenant ${t})`;
    }
    this.targets.push(target);
  }

  /** Adds the interfaces a card JSON declares, in either version's fields. */
  addCard(card: Record<string, unknown>): void {
    if (Array.isArray(card.supportedInterfaces)) {
      for (const entry of card.supportedInterfaces) {
        if (!isObject(entry)) continue;
        this.add(
          entry.url,
          entry.protocolBinding,
          entry.protocolVersion,
          entry.tenant,
          'supportedInterfaces',
        );
      }
    }
    if (typeof card.url === 'string') {
      // 0.3: preferredTransport defaults to JSONRPC (A2A 0.3 §5.6.1).
      this.add(card.url, str(card.preferredTransport) ?? 'JSONRPC', '0.3', undefined, 'url');
      if (Array.isArray(card.additionalInterfaces)) {
        for (const entry of card.additionalInterfaces) {
          if (isObject(entry)) this.add(entry.url, entry.transport, '0.3', undefined, 'additionalInterfaces');
        }
      }
    }
  }

  /** The versions the card declares interfaces for. */
  versions(): Set<ProtocolVersion> {
    return new Set(this.targets.map((t) => t.version));
  }
}

function requirementsListed(value: unknown): boolean {
  return Array.isArray(value) && value.some((r) => isObject(r) && Object.keys(r).length > 0);
}

/** The promises of a card JSON (1.0 or 0.3 form). */
export function promisesOf(card: Record<string, unknown>): CardPromises {
  const caps = isObject(card.capabilities) ? card.capabilities : {};
  const extensions = Array.isArray(caps.extensions)
    ? caps.extensions
        .filter(isObject)
        .flatMap((e) => (typeof e.uri === 'string' ? [{ uri: e.uri, required: e.required === true }] : []))
    : [];
  return {
    streaming: caps.streaming === true,
    pushNotifications: caps.pushNotifications === true,
    extendedCard: caps.extendedAgentCard === true || card.supportsAuthenticatedExtendedCard === true,
    extensions,
    schemes: isObject(card.securitySchemes) ? Object.keys(card.securitySchemes) : [],
    requiresAuth: requirementsListed(card.securityRequirements) || requirementsListed(card.security),
  };
}

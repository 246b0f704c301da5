/**
 * The SSRF guard on webhook URLs (A2A 1.0 §13.2: agents SHOULD reject private ranges,
 * localhost and link-local addresses, and use allowlists). A client chooses the URL the server
 * will POST to, so unguarded push is a way into the server's network: the cloud metadata service,
 * an admin port on loopback, a database on the private network. The guard is the net layer's
 * (shared with the client); the operator lifts it per host or CIDR block (`--push-allow`,
 * `push.allow`). It runs twice: when a config is created (a clear -32602 naming the field), and at
 * every delivery, where the checked address is then the one connected to (DNS pinned), so a name
 * that resolves elsewhere after creation is refused too (docs/decisions/0090-push-ssrf.md).
 */
import { invalidParams } from '../../protocol/internal.js';
import {
  inspectTarget,
  parseNetworkRule,
  ruleCoversAddress,
  ruleNamesHost,
  type HostResolver,
  type NetworkRule,
  type TargetAccepted,
  type TargetRefused,
} from '../../net/index.js';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Why an allow entry (`--push-allow`, `push.allow`) is unusable, or undefined when it is fine. */
export function pushAllowProblem(entry: string): string | undefined {
  try {
    parseNetworkRule(entry);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Options of the guard. */
export interface WebhookGuardOptions {
  /** Host names, IP literals or CIDR blocks exempt from the private-address check. */
  allow?: readonly string[] | undefined;
  /** How host names are resolved (default: the system resolver). */
  resolve?: HostResolver | undefined;
}

/** Checks webhook URLs; see the file comment. */
export class WebhookGuard {
  private readonly rules: NetworkRule[];
  private readonly resolve: HostResolver | undefined;

  /** Throws a TypeError naming an allow entry that is neither a host nor a CIDR block. */
  constructor(options: WebhookGuardOptions = {}) {
    this.rules = (options.allow ?? []).map((entry) => parseNetworkRule(entry));
    this.resolve = options.resolve;
  }

  /** The allow entries, as written (for messages and the served settings). */
  get allowed(): string[] {
    return this.rules.map((rule) => rule.text);
  }

  /**
   * Checks a URL a client gave in a config; throws InvalidParams at `field` when it is unusable or
   * refused. A host that does not resolve now is accepted (DNS may be down, the receiver not yet
   * deployed): every delivery checks again, and refuses then.
   */
  async checkConfigUrl(text: string, field: string): Promise<URL> {
    if (text.length > MAX_WEBHOOK_URL_LENGTH) {
      throw invalidParams(field, `is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidParams(field, `is not an absolute URL: ${JSON.stringify(text)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw invalidParams(field, `must be an https URL, got ${url.protocol}`);
    }
    if (url.username !== '' || url.password !== '') {
      // The URL is not secret (it is read back and logged); credentials belong in `authentication`.
      throw invalidParams(
        field,
        'must not carry a user name or password; put credentials in `authentication`',
      );
    }
    const verdict = await this.inspect(url);
    if (!verdict.ok && verdict.problem === 'blocked') throw invalidParams(field, refusal(verdict));
    // Plain http would show the token and the credentials to the network; only hosts the operator
    // allowed (a receiver on this machine or a trusted network) may use it (A2A 1.0 §13.2: SHOULD be HTTPS).
    if (url.protocol === 'http:' && !this.allowsPlainHttp(url, verdict)) {
      throw invalidParams(
        field,
        `must be an https URL; plain http is accepted only for hosts the operator allowed (${this.allowHint()})`,
      );
    }
    return url;
  }

  /** Resolves and checks a URL at delivery time; the accepted address is the one to connect to. */
  inspect(url: URL): Promise<TargetAccepted | TargetRefused> {
    return inspectTarget(url, {
      allowedNetworks: this.rules,
      ...(this.resolve === undefined ? {} : { resolve: this.resolve }),
    });
  }

  /** Words a refusal: which host, which address, why, and how the operator can lift it. */
  describeRefusal(verdict: TargetRefused): string {
    return refusal(verdict, this.allowHint());
  }

  private allowsPlainHttp(url: URL, verdict: TargetAccepted | TargetRefused): boolean {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (this.rules.some((rule) => ruleNamesHost(rule, host))) return true;
    // A CIDR rule allows http to the addresses it covers (checked against the resolved address).
    return verdict.ok && this.rules.some((rule) => ruleCoversAddress(rule, verdict.address.address));
  }

  private allowHint(): string {
    return '--push-allow <host|cidr> on `concord serve`, `push.allow` in the host config';
  }
}

function refusal(verdict: TargetRefused, hint = '--push-allow <host|cidr>'): string {
  if (verdict.problem === 'blocked') {
    const where =
      verdict.address === verdict.host ? verdict.host : `${verdict.host} resolves to ${verdict.address}`;
    return `refused: ${where}, ${verdict.reason}; webhooks may not reach private, loopback, link-local or metadata addresses unless the operator allows them (${hint})`;
  }
  if (verdict.problem === 'scheme') return `refused: ${verdict.reason}`;
  return `cannot resolve ${verdict.host}: ${verdict.reason}`;
}

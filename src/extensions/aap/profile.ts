/**
 * `createAapProfile`: everything an A2A agent needs to speak the AAP v0.1 automotive retail
 * profile: its card, a `ServerExtension` for `createA2AServer({ extensions })` (the one way
 * extensions plug in, decision 0154) and an executor around the dealer's skill handlers.
 *
 * Per message, in this order: the per-client rate limit (RATE_LIMITED with `retry_after_ms`),
 * the AAP request and its skill (UNSUPPORTED_SKILL, MISSING_REQUIRED_FIELD…), the bearer token for
 * skills that are not anonymous (AUTH_REQUIRED, before anything about the payload is said), the
 * buyer's `acceptedOutputModes`, the request schema, the consent rules, then the handler; its
 * response is checked against the response schema and sent as a direct Message reply whose
 * `messageId` is new (seed: "The dealer agent's messageId MUST differ"). Refusals are AapErrors,
 * which Concord sends with the AAP envelope on both bindings (aap-errors.ts).
 */
import type { AgentCard, Part, SecurityScheme } from '../../protocol/index.js';
import type {
  AgentCardInput,
  AgentExecutor,
  DocumentBuilder,
  RequestContext,
  ServerExtension,
} from '../../server/index.js';
import { aapError, mapToAapError } from './aap-errors.js';
import { aapCardExtension, aapCardSkills, aapDefaultModes, decorateAapCard } from './card.js';
import { checkConsent, DEFAULT_CONSENT_POLICY, type ConsentPolicy } from './consent.js';
import { contractManifest, type ManifestDealer } from './manifest.js';
import { createRateLimiter, type RateLimit } from './rate-limiter.js';
import { replyMode, replyParts, type AapResponse } from './reply.js';
import { peekRequestType, readAapRequest, validateAapRequest } from './request-checks.js';
import { AAP_MANIFEST_PATH, AAP_SKILLS, type AapSkill, type AapSkillId } from './skills.js';

/** What a skill handler is given besides the (schema-valid) request. */
export interface AapCallContext {
  skill: AapSkill;
  /** The dealer's clock at the time of the call. */
  now: Date;
  /** The caller's principal when a token was sent, else undefined. */
  principal: string | undefined;
  /** The A2A request context, for anything else (message, call, signal). */
  request: RequestContext;
}

/** One handler per skill; each returns the response data or throws an `aapError`. */
export type AapSkillHandlers = {
  [K in AapSkillId]: (
    payload: Record<string, unknown>,
    context: AapCallContext,
  ) => Promise<AapResponse> | AapResponse;
};

/** Options of `createAapProfile`. */
export interface AapProfileOptions {
  dealer: ManifestDealer;
  /**
   * The bearer scheme's name on the card (e.g. `bearer`) when tokens are checked; skills not in
   * `anonymousSkills` then require one. Without it every skill is anonymous.
   */
  bearerScheme?: string;
  /** Skills callable without a token (default: the four dealer and inventory skills). */
  anonymousSkills?: readonly AapSkillId[];
  /** Per client and skill (default 60 per minute); `false` turns limiting off. */
  rateLimit?: RateLimit | false;
  consent?: Partial<ConsentPolicy>;
  /** The profile's clock (default the system clock). */
  now?: () => Date;
  llm?: { guide_url?: string; rules?: string[] };
}

/** The card fields an AAP agent shares; the rest (name, description…) is the dealer's. */
export interface AapCardBase {
  name: string;
  description: string;
  version: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  /** Example prompts per skill id, shown on the card. */
  examples?: Partial<Record<AapSkillId, string[]>>;
  bearerDescription?: string;
}

/** The profile: card, server extension and executor. */
export interface AapProfile {
  /** The card input: extension entry, skills, modes, bearer scheme (not required agent-wide). */
  card(base: AapCardBase): AgentCardInput;
  /**
   * The profile as a server extension, for `createA2AServer({ extensions: [profile.extension] })`:
   * its card entry, the contract manifest, AAP's error envelope, the card's AAP members, requests
   * without `A2A-Version` read as 1.0, and every route below `/a2a` too.
   */
  readonly extension: ServerExtension;
  /** The executor that runs `handlers` under the profile's checks. */
  executor(handlers: AapSkillHandlers): AgentExecutor;
}

const DEFAULT_ANONYMOUS: AapSkillId[] = [
  'dealer.information',
  'inventory.facets',
  'inventory.search',
  'inventory.vehicle',
];

/** Creates the AAP profile for one dealer agent. */
export function createAapProfile(options: AapProfileOptions): AapProfile {
  const now = options.now ?? (() => new Date());
  const anonymous = new Set<string>(
    options.bearerScheme === undefined
      ? AAP_SKILLS.map((s) => s.id)
      : (options.anonymousSkills ?? DEFAULT_ANONYMOUS),
  );
  const protectedSkills = new Set(AAP_SKILLS.map((s) => s.id).filter((id) => !anonymous.has(id)));
  const authType = protectedSkills.size > 0 ? 'bearer' : null;
  const policy: ConsentPolicy = { ...DEFAULT_CONSENT_POLICY, ...options.consent };
  const limiter =
    options.rateLimit === false
      ? undefined
      : createRateLimiter(options.rateLimit ?? { limit: 60, windowMs: 60_000 });

  const manifest: DocumentBuilder = ({ card }: { baseUrl: string; card: AgentCard }) =>
    contractManifest({
      dealer: options.dealer,
      endpoint:
        card.supportedInterfaces.find((i) => i.protocolBinding === 'HTTP+JSON')?.url ??
        card.supportedInterfaces[0]!.url,
      anonymousSkills: anonymous,
      authType,
      ...(options.llm === undefined ? {} : { llm: options.llm }),
    });

  async function run(
    handlers: AapSkillHandlers,
    context: RequestContext,
    reply: (parts: Part[]) => void,
  ): Promise<void> {
    const at = now();
    const call = context.call;
    const client =
      call.user !== undefined ? `user:${call.user.name}` : `ip:${call.remoteAddress ?? 'unknown'}`;
    if (limiter !== undefined) {
      const wait = limiter.take(`${client}|${peekRequestType(context.message) ?? '-'}`, Date.now());
      if (wait !== undefined) {
        throw aapError('RATE_LIMITED', `Rate limit exceeded for this client; retry in ${wait} ms`, {
          details: { retry_after_ms: wait },
          now: at,
        });
      }
    }
    const request = readAapRequest(context.message, at);
    const { skill } = request;
    if (!anonymous.has(skill.id) && call.user === undefined) {
      throw aapError(
        'AUTH_REQUIRED',
        `${skill.id} requires a bearer token: send Authorization: Bearer <token>`,
        {
          details: { skill: skill.id },
          now: at,
        },
      );
    }
    const mode = replyMode(skill, context.configuration?.acceptedOutputModes);
    validateAapRequest(request, at);
    checkConsent(skill, request.payload, at, policy);
    const response = await handlers[skill.id](request.payload, {
      skill,
      now: at,
      principal: call.user?.name,
      request: context,
    });
    reply(replyParts(skill, response, mode, at));
  }

  return {
    card(base) {
      const modes = aapDefaultModes();
      const scheme: SecurityScheme | undefined =
        options.bearerScheme === undefined
          ? undefined
          : {
              httpAuthSecurityScheme: {
                scheme: 'bearer',
                bearerFormat: 'JWT',
                description:
                  base.bearerDescription ?? 'Bearer JWT for the lead skills: Authorization: Bearer <token>',
              },
            };
      return {
        name: base.name,
        description: base.description,
        version: base.version,
        ...(base.provider === undefined ? {} : { provider: base.provider }),
        ...(base.documentationUrl === undefined ? {} : { documentationUrl: base.documentationUrl }),
        capabilities: { streaming: false, extensions: [aapCardExtension(authType)] },
        defaultInputModes: modes.input,
        defaultOutputModes: modes.output,
        skills: aapCardSkills({
          ...(options.bearerScheme === undefined ? {} : { bearerScheme: options.bearerScheme }),
          protectedSkills,
          ...(base.examples === undefined ? {} : { examples: base.examples }),
        }),
        ...(scheme === undefined ? {} : { securitySchemes: { [options.bearerScheme!]: scheme } }),
      };
    },
    extension: {
      // The same entry the card lists (the card's wins, decision 0054).
      declaration: aapCardExtension(authType),
      decorateCard: decorateAapCard,
      documents: { [AAP_MANIFEST_PATH]: manifest },
      mapError: (error) => mapToAapError(error, now),
      // AAP v0.1 is defined on A2A 1.0: its documented calls send no A2A-Version header.
      defaultVersion: '1.0',
      // The seed's calls go to {base}/a2a/message:send.
      pathPrefixes: ['/a2a'],
    },
    executor(handlers) {
      return {
        execute: (context, updater) => run(handlers, context, (parts) => updater.reply(parts)),
      };
    },
  };
}

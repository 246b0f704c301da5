/**
 * `concord card get -a <ref>`: an agent's card as a2a-cli SPEC v0.2 §8.1 asks (decision 0169):
 * resolved from a host, an origin, a card URL or a card file; shown as `Label: value` lines
 * (identity, capabilities, interfaces, security schemes, skills, whether it is signed) or, with
 * `-o json`, as the AgentCard (A2A 1.0 ProtoJSON, whatever version the agent serves).
 * `--validate` lints it (`concord card <target>` stays the linter of definitions and cards, with
 * interface probes); `--extended` asks for the authenticated extended card, presenting only
 * credentials a security scheme on the public card accepts (SPEC §10.4).
 */
import { lintAgentCard } from '../../card/index.js';
import { A2AClient, resolveAgentCard } from '../../client/index.js';
import { v1_0Codec, type AgentCard } from '../../protocol/internal.js';
import type { CliIo } from '../cli-io.js';
import { A2ACLI_ERR, CardResolutionError, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { filePolicy, readCardFile, requiredSchemes } from './agent-connection.js';
import { agentOf, type AgentRef } from './agent-ref.js';
import {
  CALL_OPTIONS,
  CALL_OPTIONS_USAGE,
  checkCallFlags,
  clientOptionsOf,
  credentialsOf,
  networkPolicyFor,
  outputOf,
  preferenceOf,
  startTimeout,
  requestTimeoutOf,
  warnInsecure,
  wireOptionsOf,
  withSpecCredentials,
  type CallFlags,
  parseCall,
  printHelp,
} from './call-flags.js';
import { runCall, type CallContext } from './call-runner.js';
import { redacting } from '../redaction.js';

/** Usage text of `card get`. */
export const CARD_GET_USAGE = `Usage: concord card get -a <agent> [options]

Prints an agent's card: identity, capabilities, interfaces, security schemes, skills, and
whether it is signed. -o json prints the AgentCard (A2A 1.0 JSON).

Options:
  --validate           check the card against A2A; problems go to stderr, errors exit 1
  --extended           the agent's authenticated extended card (GetExtendedAgentCard), with
                       --bearer / --api-key; only credentials a scheme on the public card takes
                       are presented
  --stream             with -o json: the card as one JSON Lines line

(concord card <dir|file|url> lints definitions and cards and probes their interfaces;
concord card verify checks a card's signatures against trust anchors you give.)

${CALL_OPTIONS_USAGE}`;

/** A card as the agent published it. */
interface PublicCard {
  card: AgentCard;
  /** The JSON as served or written, for --validate. */
  json: Record<string, unknown>;
  /** The dialect of that JSON. */
  version: '1.0' | '0.3';
}

/** Runs `card get`; returns the exit code. */
export function cardGetCommand(args: string[], io: CliIo): Promise<number> {
  return runCall(io, 'card get', args, async (context) => {
    const { values, positionals } = parseCall(
      {
        args,
        allowPositionals: true,
        options: {
          ...CALL_OPTIONS,
          validate: { type: 'boolean', default: false },
          extended: { type: 'boolean', default: false },
          stream: { type: 'boolean', default: false },
        },
      },
      io,
    );
    if (values.help === true) return printHelp(io, CARD_GET_USAGE, values);
    const { ref, rest } = agentOf(values, positionals, CARD_GET_USAGE);
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    checkCallFlags(values);
    const json = outputOf(values) === 'json';
    startTimeout(values, context);
    const flags = withSpecCredentials(values);
    warnInsecure(flags, io);
    const published = await publicCard(ref, flags, context, io);
    let card = published.card;
    let lintJson = published.json;
    let lintVersion = published.version;
    if (values.extended === true) {
      card = await extendedCard(published.card, ref, flags, context, io);
      lintJson = v1_0Codec.encodeAgentCard(card) as Record<string, unknown>;
      lintVersion = '1.0';
    }
    const signature = signatureStatus(published.card);
    if (values.validate === true) {
      const problems = lintAgentCard(lintJson, lintVersion);
      for (const problem of problems)
        io.err(`${ref.typed}: ${problem.severity}: ${problem.path || '/'}: ${problem.message}`);
      const errors = problems.filter((p) => p.severity === 'error').length;
      if (errors > 0)
        throw new CliFailure(
          A2ACLI_ERR.CARD_INVALID,
          `the card has ${errors} error(s) against A2A ${lintVersion} (listed above)`,
          EXIT.FAILURE,
        );
      io.err(`${ref.typed}: card is valid A2A ${lintVersion}`);
    }
    if (json) {
      io.write(`${JSON.stringify(v1_0Codec.encodeAgentCard(card))}\n`);
      io.err(`signature: ${signature}`);
    } else {
      io.write(cardText(card, signature));
    }
    return EXIT.OK;
  });
}

/** The public card the reference names, fetched without credentials (A2A 1.0 §8.2). */
async function publicCard(
  ref: AgentRef,
  flags: CallFlags,
  context: CallContext,
  io: CliIo,
): Promise<PublicCard> {
  if (ref.kind === 'file') {
    const { card, json } = readCardFile(ref.path);
    const legacy = 'protocolVersion' in json || 'url' in json || !('supportedInterfaces' in json);
    return { card, json, version: legacy ? '0.3' : '1.0' };
  }
  const timeoutMs = requestTimeoutOf(flags);
  const versions = preferenceOf(flags).versions ?? ['1.0'];
  try {
    const resolved = await resolveAgentCard(ref.url, {
      ...networkPolicyFor(ref.url, flags['allow-private'] === true),
      ...wireOptionsOf(flags, io),
      protocolVersion: versions[0] ?? '1.0',
      signal: context.signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      onWarning: (w) => io.err(`warning: ${w.url} ${w.path || '/'}: ${w.message}`),
      // An origin with several agents: the catalog may list more to a caller who proves more.
      ...(flags.agent === undefined ? {} : { agent: flags.agent, credentials: credentialsOf(flags) }),
    });
    return { card: resolved.card, json: resolved.json, version: resolved.cardVersion };
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new CardResolutionError(error);
  }
}

/**
 * The extended card (SPEC §8.1, §10.4, `A2ACLI_AUTH_008`): asked for only when the public card
 * declares the capability, and with only the credentials one of its security schemes accepts.
 */
async function extendedCard(
  card: AgentCard,
  ref: AgentRef,
  flags: CallFlags,
  context: CallContext,
  io: CliIo,
): Promise<AgentCard> {
  if (card.capabilities.extendedAgentCard !== true)
    throw new CliFailure(
      'UnsupportedOperationError',
      `the card of "${card.name}" does not declare an extended card (capabilities.extendedAgentCard)`,
      EXIT.FAILURE,
    );
  const given = credentialsOf(flags);
  context.facts.credentials = given.length > 0;
  const schemes = Object.values(card.securitySchemes ?? {});
  const accepted = given.filter((credential) => schemes.some((scheme) => credential.fits(scheme)));
  if (given.length > 0 && accepted.length === 0)
    throw new CliFailure(
      A2ACLI_ERR.AUTH_FAILED,
      `the public card of "${card.name}" declares no security scheme the credentials given fit; they are not presented`,
      EXIT.AUTH,
      schemes.length === 0
        ? 'the agent advertises no security scheme for its extended card'
        : (requiredSchemes(card)?.hint ?? 'give a credential of a scheme the card declares'),
    );
  if (accepted.length === 0) {
    const needed = requiredSchemes(card);
    if (needed !== undefined)
      throw new CliFailure(
        A2ACLI_ERR.CREDENTIALS_MISSING,
        `the extended card of "${card.name}" needs credentials (${needed.names.join(' or ')}) and none were given`,
        EXIT.AUTH,
        needed.hint,
      );
  }
  const policy =
    ref.kind === 'url'
      ? networkPolicyFor(ref.url, flags['allow-private'] === true)
      : filePolicy(flags['allow-private'] === true);
  let client: A2AClient;
  try {
    client = new A2AClient({ ...clientOptionsOf(flags, policy, io), auth: accepted.map(redacting), card });
  } catch (error) {
    throw new CardResolutionError(error);
  }
  try {
    return await client.getExtendedAgentCard({ signal: context.signal });
  } finally {
    client.close();
  }
}

/**
 * Whether the card is signed, as SPEC §8.1 asks it reported: `absent` is no failure; a signed
 * card is never shown as verified here, since no trust anchor is given (`concord card verify`
 * checks it against the keys, key sets or roots you trust).
 */
function signatureStatus(card: AgentCard): string {
  const count = card.signatures?.length ?? 0;
  if (count === 0) return 'absent';
  return `unverifiable (${count} signature(s), not verified: no trust anchor given; check with concord card verify)`;
}

/** The card as `Label: value` lines (SPEC §9.2). */
function cardText(card: AgentCard, signature: string): string {
  const lines = [
    `Name: ${card.name}`,
    `Description: ${oneLine(card.description)}`,
    `Version: ${card.version}`,
  ];
  if (card.provider !== undefined) lines.push(`Provider: ${card.provider.organization} ${card.provider.url}`);
  if (card.documentationUrl !== undefined) lines.push(`Documentation: ${card.documentationUrl}`);
  lines.push(`Streaming: ${card.capabilities.streaming === true}`);
  lines.push(`Push notifications: ${card.capabilities.pushNotifications === true}`);
  lines.push(`Extended card: ${card.capabilities.extendedAgentCard === true}`);
  for (const extension of card.capabilities.extensions ?? [])
    lines.push(`Extension: ${extension.uri}${extension.required === true ? ' (required)' : ''}`);
  for (const iface of card.supportedInterfaces)
    lines.push(
      `Interface: ${iface.protocolBinding} ${iface.protocolVersion} ${iface.url}${iface.tenant === undefined || iface.tenant === '' ? '' : ` tenant ${iface.tenant}`}`,
    );
  for (const [name, scheme] of Object.entries(card.securitySchemes ?? {}))
    lines.push(`Security scheme: ${name} ${schemeText(scheme)}`);
  for (const requirement of card.securityRequirements ?? [])
    lines.push(`Security requirement: ${Object.keys(requirement.schemes).join(' + ') || '(none)'}`);
  lines.push(`Input modes: ${card.defaultInputModes.join(', ')}`);
  lines.push(`Output modes: ${card.defaultOutputModes.join(', ')}`);
  for (const skill of card.skills)
    lines.push(`Skill: ${skill.id}: ${oneLine(skill.name)}: ${oneLine(skill.description)}`);
  lines.push(`Signature: ${signature}`);
  return `${lines.join('\n')}\n`;
}

function schemeText(scheme: NonNullable<AgentCard['securitySchemes']>[string]): string {
  if ('apiKeySecurityScheme' in scheme)
    return `apiKey in ${scheme.apiKeySecurityScheme.location} ${scheme.apiKeySecurityScheme.name}`;
  if ('httpAuthSecurityScheme' in scheme) return `http ${scheme.httpAuthSecurityScheme.scheme}`;
  if ('oauth2SecurityScheme' in scheme) return 'oauth2';
  if ('openIdConnectSecurityScheme' in scheme)
    return `openIdConnect ${scheme.openIdConnectSecurityScheme.openIdConnectUrl}`;
  return 'mutualTLS';
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

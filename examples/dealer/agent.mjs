// @ts-check
/**
 * Demo Toyota, Concord's flagship example: an AAP v0.1 dealer agent (seed
 * aap-http-json-binding.md) with the seven automotive skills over A2A 1.0 (HTTP+JSON and
 * JSON-RPC), its inventory, leads and appointments in a database (SQLite in the data directory,
 * or PostgreSQL), consent-checked leads, bearer tokens for the lead skills and per-client rate
 * limits. `concord serve examples/dealer` calls `createAgent` with the serve settings.
 *
 * Environment (all optional):
 * - DEALER_JWT_SECRET     HS256 secret for bearer tokens; unset: a random one kept in the data
 *                         directory (dealer-jwt-secret, mode 0600), and a development token printed
 *                         at start, valid for 24 hours, restarts included.
 * - DEALER_DATABASE_URL   postgres://… to keep the data in PostgreSQL instead of SQLite.
 * - DEALER_ANONYMOUS_SKILLS  comma-separated skills callable without a token (default the four
 *                         dealer and inventory skills; empty: every skill needs one).
 * - DEALER_RATE_LIMIT     requests per minute per client and skill (default 120; 0: no limit).
 * - DEALER_NOW            ISO instant the dealer's clock starts at (demos and tests; it runs on).
 * - DEALER_VEHICLES       size of the generated inventory (default 3000).
 */
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { createAapProfile } from 'concord-a2a/extensions/aap';
import { createAuthenticator } from 'concord-a2a/host';
import { openDealerStore } from './lib/dealer-store.mjs';
import { DEV_SECRET_FILE, developmentSecret } from './lib/dev-secret.mjs';
import { DEALER_ID, DEALER_PROFILE, generateInventory } from './lib/inventory-data.mjs';
import { dealerSkills } from './lib/skills.mjs';

const ALL_SKILLS = [
  'dealer.information',
  'inventory.facets',
  'inventory.search',
  'inventory.vehicle',
  'lead.general',
  'lead.vehicle',
  'lead.appointment',
];

/** The dealer's clock: the system clock, or one started at DEALER_NOW that runs from there. */
function clock(start) {
  if (start === undefined || start === '') return () => new Date();
  const origin = Date.parse(start);
  if (Number.isNaN(origin)) throw new Error(`DEALER_NOW: ${start} is not an ISO 8601 instant`);
  const began = Date.now();
  return () => new Date(origin + (Date.now() - began));
}

function anonymousSkills(value) {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !ALL_SKILLS.includes(s));
  if (unknown.length > 0)
    throw new Error(
      `DEALER_ANONYMOUS_SKILLS: unknown skill(s) ${unknown.join(', ')}; skills: ${ALL_SKILLS.join(', ')}`,
    );
  return list;
}

/**
 * Builds the dealer for `concord serve`.
 * @param {{ dataDir: string, store: 'sqlite' | 'memory', env: NodeJS.ProcessEnv, log: (line: string) => void }} context
 */
export async function createAgent(context) {
  const { env, log } = context;
  const now = clock(env.DEALER_NOW);
  const databaseUrl = env.DEALER_DATABASE_URL;
  const store = await openDealerStore({
    ...(databaseUrl ? { databaseUrl } : {}),
    sqlitePath: context.store === 'memory' ? ':memory:' : join(context.dataDir, 'dealer.db'),
  });
  const count = Number(env.DEALER_VEHICLES ?? 3000);
  if (!Number.isInteger(count) || count < 3 || count > 200_000)
    throw new Error('DEALER_VEHICLES: expected an integer from 3 to 200000');
  const seeded = await store.seed(DEALER_PROFILE, generateInventory(count), `demo-toyota-v1-${count}`);
  log(
    `  dealer data: ${databaseUrl ? 'PostgreSQL (DEALER_DATABASE_URL)' : context.store === 'memory' ? 'memory (not durable)' : join(context.dataDir, 'dealer.db')}${seeded ? `, seeded with ${count} vehicles` : ''}`,
  );

  let secret = env.DEALER_JWT_SECRET;
  if (secret === undefined || secret === '') {
    // Kept in the data directory, so the token printed here survives a restart.
    const dev = developmentSecret(context.store === 'memory' ? undefined : context.dataDir);
    secret = dev.secret;
    const token = await new SignJWT({ scope: 'leads' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('dev-buyer-agent')
      .setIssuedAt()
      .setExpirationTime('24h')
      .sign(Buffer.from(secret, 'utf8'));
    log(
      dev.persisted
        ? `  DEALER_JWT_SECRET is not set: lead skills accept this development token for 24 hours (its secret is kept in ${join(context.dataDir, DEV_SECRET_FILE)}):`
        : '  DEALER_JWT_SECRET is not set: lead skills accept this development token for 24 hours, or until this process stops (memory store: its secret is not kept):',
    );
    log(`  DEALER_DEV_TOKEN=${token}`);
  }
  const auth = createAuthenticator({
    schemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', secret } },
    requirements: [],
    internalScope: 'agents:internal',
  });

  const perMinute = Number(env.DEALER_RATE_LIMIT ?? 120);
  if (!Number.isInteger(perMinute) || perMinute < 0)
    throw new Error('DEALER_RATE_LIMIT: expected a non-negative integer');
  const anonymous = anonymousSkills(env.DEALER_ANONYMOUS_SKILLS);
  const profile = createAapProfile({
    dealer: { dealer_id: DEALER_ID, name: DEALER_PROFILE.trade_name, managed_by: 'Concord example' },
    bearerScheme: 'bearer',
    ...(anonymous === undefined ? {} : { anonymousSkills: anonymous }),
    rateLimit: perMinute === 0 ? false : { limit: perMinute, windowMs: 60_000 },
    now,
    llm: {
      rules: [
        'Call inventory.search before lead.vehicle so the VIN, stock or vehicle_id you submit is one Demo Toyota has.',
        'Never submit a lead.* skill without an explicit, verbatim ConsentGrant captured from the user.',
        "Quote the FTC out-the-door 'price'; label list_price and msrp as before taxes and fees.",
      ],
    },
  });

  return {
    agentCard: profile.card({
      name: 'Demo Toyota Dealer Agent',
      description:
        'AAP v0.1 dealer agent for Demo Toyota in San Francisco: dealer profile, inventory facets, search and vehicle detail (anonymous), and consented general, vehicle and appointment leads (bearer token).',
      version: '0.1.0',
      provider: { organization: 'Demo Toyota', url: 'https://demo-toyota.example.com' },
      documentationUrl: 'https://autoagentprotocol.org/v0.1/intro',
      examples: {
        'inventory.search': ['Certified Honda Civics from 2020 or newer under $30,000'],
        'inventory.vehicle': ['Full detail for VIN 1HGCY2F57RA000001'],
        'lead.appointment': ['Book a test drive of VIN 1HGCY2F57RA000001 on Saturday morning'],
      },
    }),
    executor: profile.executor(dealerSkills(store)),
    serverOptions: {
      // The AAP profile plugs in as a server extension, as AUMP does (decision 0154).
      extensions: [profile.extension],
      authenticate: (request) => auth.authenticate(request, []),
      // Buyer agents retry a request with the same messageId (a ULID per request): a retry gets
      // the first answer, so a lead is not recorded twice nor a slot booked twice (decision 0133).
      idempotency: { messageId: true },
    },
    close: () => store.close(),
    // The serve banner's curl: the seed's inventory.search for certified Hondas under $30,000.
    exampleRequest: {
      parts: [
        {
          data: {
            type: 'inventory.search.request',
            filters: { make: ['Honda'], condition: ['used', 'certified'], year_min: 2020, price_max: 30000 },
            pagination: { skip: 0, limit: 3 },
            sort: { field: 'price', order: 'asc' },
          },
          mediaType: 'application/vnd.autoagent.inventory-search-request+json',
        },
      ],
      configuration: {
        acceptedOutputModes: ['application/vnd.autoagent.inventory-search-response+json'],
      },
    },
  };
}

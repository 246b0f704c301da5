// The marketplace's public listings (listings/*.json, from the AUMP examples repository), by id.
import { readFileSync, readdirSync } from 'node:fs';

const dir = new URL('./listings/', import.meta.url);

/** Every listing, keyed by its id. */
export const listings = Object.fromEntries(
  readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8')))
    .map((listing) => [listing.id, listing]),
);

/** The extension URI the host keys the AUMP runtime under in `context.extensions`. */
export const AUMP = 'https://agentic-user-mandate-protocol.github.io/spec/bindings/a2a/v0.1';

/** An amount in minor units as people write it: 300 USD minor units -> "3.00 USD". */
export function money({ currency, total_minor: minor }) {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}

/** The first data part of a message, or undefined. */
export function dataOf(message) {
  return message?.parts?.find((part) => part.data !== undefined)?.data;
}

// Types of public-surface.mjs, for test/package/public-surface.test.ts.

/** A public entry (package.json "exports") and the source file behind it. */
export interface PublicEntry {
  name: string;
  file: string;
}

export function publicEntries(): PublicEntry[];
/** The names each public entry exports, sorted. */
export function countSurface(): { entry: string; names: string[] }[];

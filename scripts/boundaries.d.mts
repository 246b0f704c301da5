// Types of boundaries.mjs, for test/architecture.test.ts (the tables themselves live there only).

/** One import of a file: its module name (undefined when computed) and whether it is type-only. */
export interface ImportRef {
  specifier: string | undefined;
  typeOnly?: boolean;
}

/** Where a third-party package may be imported, and where its types only. */
export interface PackageRule {
  in: readonly string[];
  typesIn?: readonly string[];
}

export const LAYERS: Record<string, readonly string[]>;
export const PUBLIC_ONLY: readonly string[];
export const PUBLIC_ENTRY: RegExp;
export const INTERNAL_ENTRY: RegExp;
export const INTERNAL_USERS: readonly string[];
export const PACKAGES: Record<string, PackageRule>;
export const NODE_BUILTINS: Record<string, Record<string, readonly string[]>>;
export const COMPUTED_IMPORTS: Record<string, string>;
export const SELF_NAMES: readonly string[];
export function packageOf(specifier: string): string;
export function layerOf(path: string): string;
export function resolveRelative(from: string, specifier: string): string;
export function checkImport(from: string, ref: ImportRef): string | undefined;
export const boundariesRule: unknown;

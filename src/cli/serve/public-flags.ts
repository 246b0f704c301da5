/**
 * `concord serve`'s public-address flags (decisions 0138, 0149): `--public-url`,
 * `--grpc-public-url`, `--trust-proxy`, checked as usage errors, with the environment
 * (`CONCORD_PUBLIC_URL`, `CONCORD_GRPC_PUBLIC_URL`, `CONCORD_TRUST_PROXY`) under them. The host
 * config's settings come under both; `startHost` reads those.
 */
import {
  grpcPublicUrlProblem,
  publicAddressOf,
  publicUrlProblem,
  type PublicAddress,
} from '../../host/internal.js';
import { asUsage, UsageError } from '../exit-codes.js';

/** The flags' values as `parseArgs` gives them. */
export interface PublicFlagValues {
  'public-url'?: string | undefined;
  'grpc-public-url'?: string | undefined;
  'trust-proxy'?: boolean | undefined;
}

/** The `parseArgs` options of the flags. */
export const PUBLIC_FLAG_OPTIONS = {
  'public-url': { type: 'string' },
  'grpc-public-url': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
} as const;

/** The flags over the environment; a bad value of either is a usage error naming it. */
export function publicFlags(values: PublicFlagValues, env: NodeJS.ProcessEnv): PublicAddress {
  const flags: PublicAddress = {};
  const url = values['public-url'];
  if (url !== undefined) {
    const problem = publicUrlProblem(url);
    if (problem !== undefined) throw new UsageError(`--public-url: ${problem}`);
    flags.publicUrl = url;
  }
  const grpc = values['grpc-public-url'];
  if (grpc !== undefined) {
    const problem = grpcPublicUrlProblem(grpc);
    if (problem !== undefined) throw new UsageError(`--grpc-public-url: ${problem}`);
    flags.grpcPublicUrl = grpc;
  }
  if (values['trust-proxy'] === true) flags.trustProxy = true;
  return asUsage(() => publicAddressOf(flags, env));
}

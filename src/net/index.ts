/**
 * Public entry of the net layer: the outbound-address guard shared by the client (cards,
 * interfaces, key sets, token endpoints) and the server (push webhooks). It imports nothing of
 * ours, so both may use it without depending on each other (docs/decisions/0086-push-notifications.md).
 */
export {
  blockedAddressReason,
  parseNetworkRule,
  ruleCoversAddress,
  ruleNamesHost,
  type NetworkRule,
} from './address-classes.js';
export {
  bareHostname,
  inspectTarget,
  pinnedLookup,
  systemResolver,
  type HostResolver,
  type ResolvedAddress,
  type TargetAccepted,
  type TargetRefused,
  type TargetRules,
} from './target-check.js';

/**
 * The server conformance checklist Concord judges agents by (each item a requirement of A2A 1.0
 * or 0.3, tagged with its versions), as `concord check` reports it: each
 * item's number, the versions it applies to, a short title, and for the items nobody can test
 * from outside the agent, why (decision 0046).
 */
import type { ProtocolVersion } from '../protocol/index.js';

/** One §11 item. */
export interface ConformanceRule {
  /** The item's number, stable: reports, tests and comments cite rules by it. */
  id: number;
  /** The protocol versions the item applies to. */
  versions: readonly ProtocolVersion[];
  title: string;
  /** Set when the rule can never be tested from outside: the reason it is skipped. */
  untestable?: string;
}

const BOTH: readonly ProtocolVersion[] = ['0.3', '1.0'];
const V03: readonly ProtocolVersion[] = ['0.3'];
const V10: readonly ProtocolVersion[] = ['1.0'];

function rule(id: number, versions: readonly ProtocolVersion[], title: string, untestable?: string) {
  return untestable === undefined ? { id, versions, title } : { id, versions, title, untestable };
}

const WEBHOOK =
  'needs a webhook receiver the agent can reach and a task that sends notifications; not observable from a client';

/** Every item of the checklist, in order. */
export const CONFORMANCE_RULES: readonly ConformanceRule[] = [
  rule(1, BOTH, 'Card served at /.well-known/agent-card.json, valid for its version'),
  rule(2, V03, '0.3 card carries the required fields'),
  rule(3, V10, '1.0 card carries the required fields'),
  rule(4, V03, 'url / preferredTransport / additionalInterfaces are truthful'),
  rule(5, V10, 'Each supportedInterfaces entry is truthful'),
  rule(6, BOTH, 'Capability flags match behaviour'),
  rule(7, BOTH, 'At least one binding fully implemented'),
  rule(8, BOTH, 'Every binding offers the same operations, results and errors'),
  rule(9, V03, 'message/send, tasks/get and tasks/cancel implemented'),
  rule(10, V10, 'Core operations implemented, optional ones or their capability errors'),
  rule(11, BOTH, 'JSON-RPC: valid 2.0 responses, id echoed, never result and error'),
  rule(12, BOTH, 'JSON-RPC: -32700 / -32600 / -32601 / -32602 where due'),
  rule(13, V03, '0.3 JSON-RPC method names'),
  rule(14, V10, '1.0 JSON-RPC method names'),
  rule(15, V03, '0.3 JSON-RPC objects carry kind and lowercase enums'),
  rule(16, V10, '1.0 output: no kind, enum names, camelCase, SendMessage wrapper'),
  rule(17, V10, 'Timestamps in UTC with a Z suffix'),
  rule(18, BOTH, 'A unique, server-generated id for every new task'),
  rule(19, BOTH, 'A generated contextId is returned'),
  rule(20, V10, 'Context of follow-up messages taken from the task, mismatches rejected'),
  rule(21, V10, 'A message with an unknown taskId gets TaskNotFoundError'),
  rule(22, BOTH, 'A message to a terminal task is rejected (1.0: -32004)'),
  rule(23, BOTH, 'A finished task is never restarted'),
  rule(24, V10, 'Blocking by default; returnImmediately returns at once'),
  rule(25, BOTH, 'GetTask returns status and artifacts, honours historyLength'),
  rule(26, V10, 'ListTasks: always-present fields, newest first, cursor pagination'),
  rule(27, V10, 'ListTasks: artifacts only on request, pageSize bounds, filters'),
  rule(28, BOTH, 'CancelTask returns the task; -32002 / -32001 where due'),
  rule(29, BOTH, 'Streams: HTTP 200 text/event-stream, one data line of JSON per event'),
  rule(30, V03, '0.3 JSON-RPC stream events: same id, typed results, final then close'),
  rule(31, V10, '1.0 stream events are StreamResponses'),
  rule(32, BOTH, 'A message stream sends one Message and closes'),
  rule(33, BOTH, 'A task stream starts with the Task'),
  rule(34, V10, 'SubscribeToTask starts with the current Task'),
  rule(35, V10, 'A task stream closes at a terminal state'),
  rule(36, V10, 'Concurrent streams of a task get the same events'),
  rule(37, V10, 'SubscribeToTask on a terminal task gets UnsupportedOperationError'),
  rule(38, BOTH, 'Artifact chunks use append and lastChunk consistently'),
  rule(39, V10, 'Without pushNotifications every push operation gets -32003'),
  rule(40, V10, 'Streaming and extended-card capability errors (-32004 / -32007)'),
  rule(41, BOTH, 'The extended card requires a scheme the public card declares'),
  rule(42, V10, 'A push config persists until deleted'),
  rule(43, V10, 'Push config get/delete of missing configs fail; delete is idempotent'),
  rule(44, V10, 'Webhook deliveries are POSTs of StreamResponses', WEBHOOK),
  rule(45, BOTH, 'The server authenticates to the webhook as configured', WEBHOOK),
  rule(46, BOTH, 'Webhook URLs are checked against SSRF', WEBHOOK),
  rule(47, V10, 'JSON-RPC error.data is a typed array with an ErrorInfo'),
  rule(48, V10, 'REST errors: status from the 1.0.1 table, google.rpc.Status body'),
  rule(49, V10, 'gRPC errors carry the status and an ErrorInfo'),
  rule(50, V10, 'A2A-Version read; unsupported versions get -32009'),
  rule(
    51,
    V10,
    'Service parameters case-insensitive, comma-separated',
    'HTTP header names are case-insensitive before the agent sees them; nothing more is observable from outside',
  ),
  rule(52, V10, 'A required extension not activated gets -32008'),
  rule(53, BOTH, 'Unsupported extensions requested are ignored, not echoed'),
  rule(
    54,
    BOTH,
    'Extension methods do not clash and are authenticated',
    'extension methods are not discoverable from the card',
  ),
  rule(55, V10, 'tenant honoured in the body and the REST path'),
  rule(56, BOTH, 'Requests without credentials get 401 (or 403)'),
  rule(
    57,
    V10,
    'Authorization checked before any lookup',
    'needs two identities with different permissions; a single caller cannot observe it',
  ),
  rule(58, BOTH, 'HTTPS in production'),
  rule(59, BOTH, 'Parameters and parts validated; unknown fields ignored (1.0)'),
  rule(60, V10, 'REST GET parameters in the query, camelCase, enums by name'),
  rule(61, V10, 'Card signatures: JWS over the canonical card, header with alg and kid'),
  rule(62, V03, '0.3 REST routes under /v1'),
  rule(63, V10, '1.0 REST routes without a prefix'),
];

/** The rule with this §11 number. */
export function ruleById(id: number): ConformanceRule {
  const found = CONFORMANCE_RULES.find((r) => r.id === id);
  if (found === undefined) throw new Error(`no §11 rule ${id}`);
  return found;
}

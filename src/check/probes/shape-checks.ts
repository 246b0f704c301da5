/**
 * The wire shape of results, checked on the JSON as received (pure): 0.3 JSON-RPC objects carry
 * `kind` and lowercase enums (rule 15); 1.0 output has no `kind`, uses `TASK_STATE_*` /
 * `ROLE_*`, camelCase names and the oneof wrappers (rule 16); 1.0 timestamps are UTC with `Z`
 * (rule 17). Each problem names the JSON Pointer of the member at fault. Free-form members
 * (`metadata`, a data part's `data`, extension `params`) are not walked: they belong to the agent.
 */

/** A problem at a JSON Pointer. */
export interface ShapeProblem {
  path: string;
  message: string;
}

const FREE_FORM = new Set(['metadata', 'data', 'params']);
const V03_STATES = new Set([
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'unknown',
]);
const V03_PART_KINDS = new Set(['text', 'file', 'data']);
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const at = (path: string, key: string | number): string =>
  `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Visits every object member outside free-form values. */
function walk(
  value: unknown,
  path: string,
  visit: (key: string, value: unknown, path: string) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, at(path, i), visit));
    return;
  }
  if (!isObject(value)) return;
  for (const [key, member] of Object.entries(value)) {
    visit(key, member, at(path, key));
    if (!FREE_FORM.has(key)) walk(member, at(path, key), visit);
  }
}

function expectKind(value: unknown, path: string, kinds: string[], out: ShapeProblem[]): string | undefined {
  if (!isObject(value)) {
    out.push({ path, message: 'expected an object' });
    return undefined;
  }
  if (!kinds.includes(String(value.kind)))
    out.push({
      path: at(path, 'kind'),
      message: `kind is ${JSON.stringify(value.kind)}, expected ${kinds.map((k) => `"${k}"`).join(' or ')}`,
    });
  return typeof value.kind === 'string' ? value.kind : undefined;
}

function v03Parts(parts: unknown, path: string, out: ShapeProblem[]): void {
  if (!Array.isArray(parts)) return;
  parts.forEach((part, i) => expectKind(part, at(path, i), [...V03_PART_KINDS], out));
}

function v03Message(message: unknown, path: string, out: ShapeProblem[]): void {
  if (message === undefined) return;
  expectKind(message, path, ['message'], out);
  if (!isObject(message)) return;
  if (message.role !== 'user' && message.role !== 'agent')
    out.push({
      path: at(path, 'role'),
      message: `role is ${JSON.stringify(message.role)}, expected "user" or "agent"`,
    });
  v03Parts(message.parts, at(path, 'parts'), out);
}

function v03Status(status: unknown, path: string, out: ShapeProblem[]): void {
  if (!isObject(status)) return;
  if (!V03_STATES.has(String(status.state)))
    out.push({
      path: at(path, 'state'),
      message: `state is ${JSON.stringify(status.state)}, expected a lowercase 0.3 state`,
    });
  v03Message(status.message, at(path, 'message'), out);
}

function v03Artifact(artifact: unknown, path: string, out: ShapeProblem[]): void {
  if (isObject(artifact)) v03Parts(artifact.parts, at(path, 'parts'), out);
}

/**
 * Rule 15: a 0.3 JSON-RPC result (`message/send`, `tasks/get`, `tasks/cancel`) or stream event;
 * `allowed` lists the kinds that may appear at the top.
 */
export function v03ShapeProblems(value: unknown, allowed: string[]): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  const kind = expectKind(value, '', allowed, out);
  if (!isObject(value)) return out;
  if (kind === 'task') {
    v03Status(value.status, '/status', out);
    if (Array.isArray(value.history)) value.history.forEach((m, i) => v03Message(m, at('/history', i), out));
    if (Array.isArray(value.artifacts))
      value.artifacts.forEach((a, i) => v03Artifact(a, at('/artifacts', i), out));
  } else if (kind === 'message') {
    v03Message(value, '', out);
  } else if (kind === 'status-update') {
    v03Status(value.status, '/status', out);
    if (typeof value.final !== 'boolean')
      out.push({ path: '/final', message: 'a 0.3 status-update carries final (boolean)' });
  } else if (kind === 'artifact-update') {
    v03Artifact(value.artifact, '/artifact', out);
  }
  return out;
}

/** Rule 16: 1.0 output, with `wrapper` naming the oneof members allowed at the top (if any). */
export function v10ShapeProblems(value: unknown, wrapper?: string[]): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  if (wrapper !== undefined) {
    const keys = isObject(value) ? Object.keys(value).filter((k) => wrapper.includes(k)) : [];
    if (keys.length !== 1)
      out.push({
        path: '',
        message: `expected exactly one of ${wrapper.join(', ')}, got ${isObject(value) ? `{${Object.keys(value).join(', ')}}` : JSON.stringify(value)}`,
      });
  }
  walk(value, '', (key, member, path) => {
    if (key === 'kind')
      out.push({ path, message: '1.0 output carries no kind (oneofs are named by member)' });
    else if (key.includes('_')) out.push({ path, message: `"${key}" is not camelCase` });
    else if (key === 'state' && !(typeof member === 'string' && /^TASK_STATE_[A-Z_]+$/.test(member)))
      out.push({ path, message: `state is ${JSON.stringify(member)}, expected a TASK_STATE_* name` });
    else if (key === 'role' && !(typeof member === 'string' && /^ROLE_[A-Z]+$/.test(member)))
      out.push({ path, message: `role is ${JSON.stringify(member)}, expected ROLE_USER or ROLE_AGENT` });
  });
  return out;
}

/** Rule 17: every `timestamp` member (and list filters) is RFC 3339 in UTC with `Z`. */
export function timestampProblems(value: unknown): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  walk(value, '', (key, member, path) => {
    if (key !== 'timestamp') return;
    if (typeof member !== 'string' || !RFC3339_UTC.test(member) || Number.isNaN(Date.parse(member)))
      out.push({
        path,
        message: `timestamp ${JSON.stringify(member)} is not an RFC 3339 UTC time ending in Z`,
      });
  });
  return out;
}

/** Problems as one line of evidence. */
export function describeProblems(problems: ShapeProblem[]): string {
  return problems
    .slice(0, 5)
    .map((p) => `${p.path || '/'}: ${p.message}`)
    .concat(problems.length > 5 ? [`... ${problems.length - 5} more`] : [])
    .join('; ');
}

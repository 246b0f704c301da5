/**
 * `concord approvals list|show|approve|reject <agent-url> [<approval-id>]`: the owner's side of
 * `requiresApproval` contracts, over the host's approvals API (decision 0017). Credentials come
 * from flags or, better, the environment (`CONCORD_TOKEN`, `CONCORD_API_KEY`), so they stay out
 * of shell history.
 */
import { parseArgs } from 'node:util';
import { EXIT, UsageError } from '../exit-codes.js';

/** Usage text of `approvals`. */
export const APPROVALS_USAGE = `Usage: concord approvals list <agent-url> [--status pending|approved|rejected]
       concord approvals show <agent-url> <approval-id>
       concord approvals approve <agent-url> <approval-id> [--reason <text>]
       concord approvals reject <agent-url> <approval-id> [--reason <text>]

  <agent-url> is the agent's base URL, e.g. http://127.0.0.1:4000/agents/research-bot/

Options:
  --token <jwt>            bearer token (default: $CONCORD_TOKEN)
  --api-key <key>          API key (default: $CONCORD_API_KEY)
  --api-key-header <name>  header carrying the API key (default X-API-Key)`;

type Out = (line: string) => void;

/** Runs `approvals`; returns the exit code. */
export async function approvalsCommand(
  args: string[],
  out: Out,
  err: Out,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      reason: { type: 'string' },
      token: { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-header': { type: 'string', default: 'X-API-Key' },
      help: { type: 'boolean', default: false },
    },
  });
  const [action, agentUrl, id] = positionals;
  if (values.help === true || action === undefined) {
    out(APPROVALS_USAGE);
    return action === undefined && values.help !== true ? EXIT.USAGE : 0;
  }
  if (agentUrl === undefined || !/^https?:\/\//.test(agentUrl)) {
    throw new UsageError(`missing the agent URL\n\n${APPROVALS_USAGE}`);
  }
  const base = `${agentUrl.replace(/\/?$/, '/')}approvals`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = values.token ?? env.CONCORD_TOKEN;
  const apiKey = values['api-key'] ?? env.CONCORD_API_KEY;
  if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
  if (apiKey !== undefined && apiKey !== '') headers[values['api-key-header'] ?? 'X-API-Key'] = apiKey;

  let response: Response;
  switch (action) {
    case 'list': {
      const query = values.status === undefined ? '' : `?status=${encodeURIComponent(values.status)}`;
      response = await fetch(`${base}${query}`, { headers });
      break;
    }
    case 'show':
    case 'approve':
    case 'reject': {
      if (id === undefined) throw new UsageError(`missing the approval id\n\n${APPROVALS_USAGE}`);
      const target = `${base}/${encodeURIComponent(id)}`;
      response =
        action === 'show'
          ? await fetch(target, { headers })
          : await fetch(`${target}:${action}`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify(values.reason === undefined ? {} : { reason: values.reason }),
            });
      break;
    }
    default:
      throw new UsageError(`unknown approvals action ${JSON.stringify(action)}\n\n${APPROVALS_USAGE}`);
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      // not JSON: print as received
    }
    err(`concord approvals ${action}: HTTP ${response.status}: ${message}`);
    return 1;
  }
  const body = JSON.parse(text) as Record<string, unknown>;
  if (action === 'list') {
    const approvals = (body.approvals ?? []) as Record<string, unknown>[];
    if (approvals.length === 0) out('no approvals');
    for (const a of approvals) {
      out(
        `${String(a.id)}  ${String(a.status)}  ${String(a.contract)}  task ${String(a.taskId)}  requested ${String(a.requestedAt)}`,
      );
    }
    return 0;
  }
  out(JSON.stringify(body, null, 2));
  return 0;
}

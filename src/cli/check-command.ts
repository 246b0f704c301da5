/**
 * `concord check <url>`: the conformance self-check of a live agent (src/check): a pass / fail /
 * skip table per rule of the digest's §11 checklist, with evidence for failures. Exit code 1
 * when any rule fails (an unreadable card fails rule 1).
 */
import { parseArgs } from 'node:util';
import { checkAgent, formatCheckReport } from '../check/index.js';

/** Usage text of `check`. */
export const CHECK_USAGE = `Usage: concord check <url> [options]

Checks a live agent against the A2A conformance checklist, over every interface its card declares.

Options:
  --allow-private      allow loopback, private and link-local addresses (local agents)
  --token <token>      bearer token to present on every call
  --text <text>        the message sent to create tasks (default "Hello from concord check")
  --wait-text <text>   a message the agent answers by working until canceled (e.g. "wait" for
                       Concord's echo example); enables the open-task rules 20, 34 and 36
  --timeout <ms>       per-request timeout, and how long a stream may take (default 10000)
  --json               print the report as JSON`;

type Out = (line: string) => void;

/** Runs `check`; returns the exit code. */
export async function checkCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'allow-private': { type: 'boolean', default: false },
      token: { type: 'string' },
      text: { type: 'string' },
      'wait-text': { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help === true) {
    out(CHECK_USAGE);
    return 0;
  }
  const url = positionals[0];
  if (url === undefined) throw new Error(`missing the agent URL\n\n${CHECK_USAGE}`);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new Error(`${JSON.stringify(url)} is not an http(s) URL`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new Error(`--timeout: expected a positive number of milliseconds, got ${values.timeout}`);
  const report = await checkAgent(url, {
    allowPrivateNetworks: values['allow-private'] === true,
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(values.text === undefined ? {} : { text: values.text }),
    ...(values['wait-text'] === undefined ? {} : { waitText: values['wait-text'] }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  out(values.json === true ? JSON.stringify(report, null, 2) : formatCheckReport(report));
  return report.ok ? 0 : 1;
}

// The seed's multi-agent pipeline (examples/pipeline) through HTTP: coordinator → researcher
// (allowFreeform: false) → reviewer, each hop through the target's contract gate.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { allDrivers, taskOf, userText } from '../helpers/drivers.js';

const EXAMPLE = join(import.meta.dirname, '../../examples/pipeline');
let host: RunningHost;

beforeAll(async () => {
  host = await startHost(EXAMPLE, { port: 0, internalPort: 0, store: 'memory' });
});
afterAll(async () => {
  await host?.close();
});

describe('examples/pipeline', () => {
  it('answers through the researcher and the reviewer, on every binding and version', async () => {
    // The coordinator is the only exposed agent, so it is also served at the root.
    for (const driver of allDrivers(host.url)) {
      const task = taskOf(await driver.send(userText('agent interoperability | 3')));
      expect(task.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      const data = (
        task.artifacts?.[0]?.parts[0] as {
          data: { research: { summary: string; sources: string[]; confidence: number }; review: unknown };
        }
      ).data;
      expect(data.research, driver.name).toMatchObject({
        summary: 'Findings on agent interoperability: 3 sources agree.',
        confidence: 0.8,
      });
      expect(data.research.sources, driver.name).toHaveLength(3);
      expect(data.review, driver.name).toEqual({ verdict: 'approved', checkedSources: 3 });
    }
  });

  it("stops at the researcher's gate when the coordinator sends a payload its schema refuses", async () => {
    const [driver] = allDrivers(host.url);
    const task = taskOf(await driver!.send(userText('agent interoperability | many')));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    const text = JSON.stringify(task.status.message);
    expect(text).toContain('The researcher refused the request');
    expect(text).toContain('Contract \\"research.query\\" input validation failed');
    expect(text).toContain('/maxSources');
  });

  it('keeps researcher and reviewer off the public listener, and the researcher refuses plain text', async () => {
    const listed = (await (await fetch(`${host.url}agents`)).json()) as { agents: { id: string }[] };
    expect(listed.agents.map((a) => a.id)).toEqual(['coordinator']);
    const [internal] = allDrivers(`${host.internalUrl}agents/researcher/`);
    const outcome = await internal!.send(userText('just tell me'));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.message).toBe(
        'Agent "researcher" requires structured A2A messages (allowFreeform=false). Available contracts: research.query',
      );
    }
  });
});

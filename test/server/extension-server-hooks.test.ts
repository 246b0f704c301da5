// The hooks of decision 0063 contributed by ServerExtensions (decision 0154): joined with the
// server's own options in list order, the server's last; one default version or a refusal; and,
// through a real server, an extension's mapper, decorator, default version and prefix at work.
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError } from '../../src/protocol/index.js';
import { createA2AServer, type ServerExtension } from '../../src/server/index.js';
import { joinedHooks } from '../../src/server/server-extension.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';

function extension(uri: string, hooks: Partial<ServerExtension>): ServerExtension {
  return { declaration: { uri }, ...hooks };
}

const restated = (from: string, to: string) => (error: A2AError) =>
  error.message === from ? new A2AError('InvalidParamsError', to) : error;

describe('joinedHooks', () => {
  it('leaves a server without extension hooks as it was', () => {
    const own = { mapError: (e: A2AError) => e };
    const joined = joinedHooks(own, [extension('urn:a', {})]);
    expect(joined.mapError).toBe(own.mapError);
    expect(joined).toMatchObject({
      decorateCard: undefined,
      defaultVersion: undefined,
      pathPrefixes: undefined,
    });
  });

  it("runs mappers and decorators in list order, the server's last; a throwing mapper is skipped", () => {
    const joined = joinedHooks(
      {
        mapError: restated('b', 'c'),
        decorateCard: (json) => ({ ...json, order: [...(json.order as string[]), 'server'] }),
      },
      [
        extension('urn:a', {
          mapError: restated('a', 'b'),
          decorateCard: (json) => ({ ...json, order: ['a'] }),
        }),
        extension('urn:t', {
          mapError: () => {
            throw new Error('broken mapper');
          },
        }),
      ],
    );
    expect(joined.mapError!(new A2AError('InternalError', 'a')).message).toBe('c');
    expect(joined.decorateCard!({}, '1.0')).toEqual({ order: ['a', 'server'] });
  });

  it("takes one default version: the server's, else the extensions' if they agree", () => {
    const one = extension('urn:a', { defaultVersion: '1.0' });
    expect(joinedHooks({}, [one, extension('urn:b', { defaultVersion: '1.0' })]).defaultVersion).toBe('1.0');
    expect(joinedHooks({ defaultVersion: '0.3' }, [one]).defaultVersion).toBe('0.3');
    expect(() => joinedHooks({}, [one, extension('urn:b', { defaultVersion: '0.3' })])).toThrow(
      /urn:a wants defaultVersion 1\.0, urn:b wants defaultVersion 0\.3/,
    );
  });

  it("lists the server's prefixes, then the extensions', each once", () => {
    const joined = joinedHooks({ pathPrefixes: ['/x'] }, [
      extension('urn:a', { pathPrefixes: ['/a2a', '/x'] }),
      extension('urn:b', { pathPrefixes: ['/a2a'] }),
    ]);
    expect(joined.pathPrefixes).toEqual(['/x', '/a2a']);
  });
});

describe('a server with an extension setting the hooks', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('serves the card decorated, headerless requests as 1.0, below the prefix, errors restated', async () => {
    const server = createA2AServer({
      agentCard: {
        name: 'hooked',
        description: 'an agent whose extension sets the hooks',
        version: '1.0.0',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      },
      executor: {
        execute() {
          throw new A2AError('InvalidParamsError', 'from the agent');
        },
      },
      extensions: [
        extension('urn:hooks', {
          mapError: (error) =>
            error.message === 'from the agent'
              ? new A2AError('UnsupportedOperationError', 'restated')
              : error,
          decorateCard: (json, version) => ({ ...json, decoratedFor: version }),
          defaultVersion: '1.0',
          pathPrefixes: ['/a2a'],
        }),
      ],
    });
    running = await listen(server, { port: 0 });
    const card = await (await fetch(`${running.url}.well-known/agent-card.json`)).json();
    expect(card).toMatchObject({ decoratedFor: '1.0', capabilities: { extensions: [{ uri: 'urn:hooks' }] } });
    const sent = await fetch(`${running.url}a2a/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }),
    });
    expect(sent.status).toBe(400);
    expect(await sent.json()).toMatchObject({ error: { message: 'restated' } });
  });
});

/**
 * What loadHost reads for each kind of target, and the checks that need files of their own
 * (written to a fresh temporary directory per test).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError, loadHost } from '../../../src/host/definitions/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-definitions-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): string {
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

const agent = (name: string, extra = ''): string =>
  `---\nname: ${name}\nmodel: gpt-4o\n${extra}---\nPrompt of ${name}.\n`;

async function failure(target: string): Promise<Array<[string, number | undefined, string, string]>> {
  const error = await loadHost(target, { env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DefinitionError);
  return (error as DefinitionError).problems.map((p) => [p.file, p.line, p.field, p.message]);
}

describe('loadHost targets', () => {
  it('reports a missing target and a file of another kind', async () => {
    expect(await failure(join(dir, 'nope'))).toEqual([
      [join(dir, 'nope'), undefined, '', 'no such file or directory'],
    ]);
    const txt = write('agent.txt', 'hello');
    expect((await failure(txt))[0]?.[3]).toMatch(/^not a directory, an agent markdown file/);
  });

  it('without a config, reads the directory (not its subdirectories) and all of agents/', async () => {
    write('a.md', agent('a'));
    write('agents/deep/b.md', agent('b'));
    write('docs/c.md', agent('c'));
    const config = await loadHost(dir);
    expect(config.source).toBe(dir);
    expect(config.agents.map((a) => a.id)).toEqual(['a', 'b']);
    expect(config.agents[1]?.systemPrompt).toBe('Prompt of b.');
  });

  it('with agents.dir, reads only that directory, recursively, relative to the config', async () => {
    write('conf/concord.config.json', JSON.stringify({ agents: { dir: '../defs' } }));
    write('conf/ignored.md', agent('ignored'));
    write('defs/x/one.md', agent('one'));
    const config = await loadHost(join(dir, 'conf'));
    expect(config.agents.map((a) => a.id)).toEqual(['one']);
  });

  it('reports an agents.dir that is not a directory', async () => {
    const file = write('concord.config.json5', "{\n  agents: { dir: 'missing' },\n}\n");
    expect(await failure(dir)).toEqual([
      [file, 2, '/agents/dir', `not a directory: ${join(dir, 'missing')}`],
    ]);
  });

  it('prefers concord.config.json5 and reports a second config file', async () => {
    write('concord.config.json5', '{}');
    const json = write('concord.config.json', '{}');
    expect(await failure(dir)).toEqual([[json, undefined, '', expect.stringContaining('ignored:')]]);
  });

  it('requires frontmatter in a markdown file named directly, and a closing fence', async () => {
    const plain = write('plain.md', '# Not an agent\n');
    expect(await failure(plain)).toEqual([[plain, 1, '', expect.stringContaining('no YAML frontmatter')]]);
    const open = write('open.md', '---\nname: x\nmodel: m\n');
    expect(await failure(open)).toEqual([[open, 1, '', expect.stringContaining('not closed')]]);
  });

  it('gives file lines for CRLF markdown', async () => {
    const file = write('crlf.md', '---\r\nname: crlf\r\nmodel: gpt-4o\r\n\r\nbogus: 1\r\n---\r\nBody\r\n');
    expect(await failure(file)).toEqual([[file, 5, '/bogus', 'unknown field']]);
  });

  it('reports keys written twice in the JSON5 config and in YAML', async () => {
    const file = write('concord.config.json5', "{\n  model: {},\n  model: { baseUrl: 'x' },\n}\n");
    const md = write('agents/twice.md', '---\nname: twice\nmodel: a\nmodel: b\n---\n');
    expect(await failure(dir)).toEqual([
      [md, 4, '', expect.stringContaining('Map keys must be unique')],
      [file, 3, '/model', expect.stringContaining('duplicate key')],
    ]);
  });

  it('reports duplicate skill ids, including ones derived from names', async () => {
    const file = write(
      'skills.md',
      agent(
        's',
        'skills:\n  - { name: Look Up, description: a }\nagentcard:\n  skills:\n    - { name: look-up, description: b }\n',
      ),
    );
    expect(await failure(file)).toEqual([
      [file, 8, '/agentcard/skills/0/name', 'duplicate skill id "look-up"'],
    ]);
  });

  it('lets requirements name schemes only when the host declares them', async () => {
    const file = write('guarded.md', agent('guarded', 'security:\n  - bearer: []\n'));
    expect(await failure(file)).toEqual([
      [file, 5, '/security/0/bearer', 'unknown security scheme "bearer" (the host config declares none)'],
    ]);
  });
});

describe('loadHost host settings', () => {
  it('checks bearer verification settings and signing keys against the files they name', async () => {
    write('keys/not-a-key.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    const file = write(
      'concord.config.json5',
      [
        '{',
        '  security: { schemes: {',
        "    none: { type: 'http', scheme: 'bearer' },",
        "    plain: { type: 'http', scheme: 'bearer', jwks: 'http://idp.example.com/jwks' },",
        "    local: { type: 'http', scheme: 'bearer', jwks: 'keys/jwks.json' },",
        "    loopback: { type: 'http', scheme: 'bearer', jwks: 'http://127.0.0.1:8080/jwks' },",
        '  } },',
        '  signing: { keys: [',
        "    { kid: 'a', alg: 'ES256', privateKeyFile: 'keys/missing.pem' },",
        "    { kid: 'a', alg: 'EdDSA', privateKeyFile: 'keys/not-a-key.pem' },",
        '  ] },',
        '}',
      ].join('\n'),
    );
    expect(await failure(dir)).toEqual([
      [file, 3, '/security/schemes/none', 'a bearer scheme needs `jwks` or `secret` to verify tokens with'],
      [
        file,
        4,
        '/security/schemes/plain/jwks',
        'must be an https URL or a file path (got http://idp.example.com/jwks)',
      ],
      [file, 5, '/security/schemes/local/jwks', `JWKS file not found: ${join(dir, 'keys/jwks.json')}`],
      [
        file,
        9,
        '/signing/keys/0/privateKeyFile',
        `cannot read private key file ${join(dir, 'keys/missing.pem')}`,
      ],
      [file, 10, '/signing/keys/1/kid', 'duplicate key id "a"'],
      [
        file,
        10,
        '/signing/keys/1/privateKeyFile',
        expect.stringContaining('is not a PKCS#8 PEM private key usable with EdDSA'),
      ],
    ]);
  });

  it('applies the security defaults and resolves { env } secrets', async () => {
    write(
      'concord.config.json5',
      "{ security: { schemes: { b: { type: 'http', scheme: 'bearer', secret: { env: 'HS_SECRET' } } } } }",
    );
    const config = await loadHost(dir, { env: { HS_SECRET: 'from-env' } });
    expect(config.security).toEqual({
      schemes: { b: { type: 'http', scheme: 'bearer', secret: 'from-env' } },
      requirements: [],
      internalScope: 'agents:internal',
    });
  });

  it('formats the error message one problem per line', async () => {
    const file = write('concord.config.json5', '{\n  colour: 1,\n}\n');
    const error = (await loadHost(dir).catch((e: unknown) => e)) as DefinitionError;
    expect(error.message).toBe(`Invalid agent definitions (1 problem):\n${file}:2: /colour: unknown field`);
  });
});

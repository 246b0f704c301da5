/**
 * `concord completion <shell>`, a2a-cli SPEC v0.2 §5.1 (A2ACLI_CLI_002), through the real
 * `concord` binary: the bash script, loaded in bash, completes commands, subcommands and options.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concord, ROOT } from '../cli-process.js';

/** What the bash completion offers for the words typed so far. */
function bashComplete(words: string[]): Promise<string[]> {
  const script = [
    `source <(${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'dist/cli/main.js'))} completion bash)`,
    `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_concord',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], (error, stdout) => {
      if (error !== null) reject(error);
      else resolve(stdout.split('\n').filter((l) => l !== ''));
    });
  });
}

describe('completion', () => {
  it('A2ACLI_CLI_002: completion <shell> emits a completion script for bash, zsh and fish', async () => {
    expect(await bashComplete(['concord', 'ta'])).toEqual(['task']);
    expect(await bashComplete(['concord', 'task', 'su'])).toEqual(['subscribe']);
    expect(await bashComplete(['concord', 'task', 'do'])).toEqual(['download']);
    expect(await bashComplete(['concord', 'card', ''])).toEqual(['get', 'verify']);
    expect(await bashComplete(['concord', 'config', ''])).toEqual(['show']);
    expect(await bashComplete(['concord', 'send', '--insec'])).toEqual(['--insecure']);
    expect(await bashComplete(['concord', 'send', '--ca-'])).toEqual(['--ca-cert']);
    expect(await bashComplete(['concord', 'send', '--agent-c'])).toEqual(['--agent-card']);
    expect(await bashComplete(['concord', 'send', '--media'])).toEqual(['--media-type']);
    for (const shell of ['zsh', 'fish']) {
      const run = await concord(['completion', shell]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('task');
      expect(run.stdout).toContain('agent-card');
    }
    expect((await concord(['completion', 'zsh'])).stdout).toMatch(/^#compdef concord/);
    expect((await concord(['completion', 'fish'])).stdout).toContain('complete -c concord -l agent-card');
    expect((await concord(['completion', 'powershell'])).code).toBe(2);
    expect((await concord(['completion'])).code).toBe(2);
  });
});

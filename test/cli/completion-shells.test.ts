import { execFile, execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer, writeKubeconfig } from '../support/apiserver.js';
import { runBounded } from '../support/bounded.js';
import { LINKERD_BIN, runCli } from '../support/cli.js';

const run = promisify(execFile);

/*
 * Completion candidates are data: a context or namespace name comes from a file or an API server,
 * and the shells must offer it literally, never run what it says. Each shell's generated script
 * is driven the way the shell drives it on TAB, with names that would run `touch` if expanded.
 */

const DOLLAR = 'prod-$(touch pwned-dollar)';
const BACKTICK = 'prod-`touch pwned-backtick`';
const MARKERS = ['pwned-dollar', 'pwned-backtick'];

let dir: string;
let kubeconfig: string;
let fifo: string;
let server: ApiServer;

/** PATH with `linkerd` first: the zsh and fish scripts run the command by that name. */
function shellEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, CI: 'true', ...extra };
}

function expectNoMarkers(): void {
  for (const m of MARKERS) expect(existsSync(path.join(dir, m)), `${m} was created`).toBe(false);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'l5d-complete-shells-'));
  mkdirSync(path.join(dir, 'bin'));
  symlinkSync(LINKERD_BIN, path.join(dir, 'bin', 'linkerd'));
  server = await startApiServer({
    objects: ['default', 'shop-$(touch pwned-dollar)', 'shop-\u001b[31mred\u001b]0;owned\u0007\u0008\r\u009b2J'].map((name) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    })),
  });
  kubeconfig = writeKubeconfig(path.join(dir, 'config'), [
    { name: DOLLAR, server: server.url, caPem: server.caPem, token: server.token },
    { name: BACKTICK, server: server.url, caPem: server.caPem, token: server.token },
  ]);
  fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  for (const shell of ['bash', 'zsh', 'fish']) writeFileSync(path.join(dir, `script.${shell}`), (await runCli(['completion', shell])).stdout);
});

afterAll(async () => {
  // A reader still blocked on the FIFO (a failing run) gets its end of file, and ends.
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // no reader left: ENXIO
  }
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkerd __complete output', () => {
  it('strips escape sequences and control characters from candidates', async () => {
    const r = await runCli(['__complete', '--kubeconfig', kubeconfig, 'check', '-n', 'shop'], { env: { HOME: dir } });
    expect(r.stdout).toBe('shop-red\nshop-$(touch pwned-dollar)\n');
  });

  it('answers nothing, and returns, when the kubeconfig is a FIFO nobody writes', async () => {
    for (const args of [
      ['__complete', '--kubeconfig', fifo, '--context', ''],
      ['__complete', '--kubeconfig', fifo, 'check', '-n', ''],
    ]) {
      // The fence only stops a hang from hanging the suite; the answer's own deadline is a second.
      const r = await runBounded(args, { timeoutMs: 30_000 });
      expect(r.killed).toBeUndefined();
      expect(r.stdout).toBe('');
    }
    const viaEnv = await runBounded(['__complete', '--context', ''], { timeoutMs: 30_000, env: { KUBECONFIG: fifo } });
    expect(viaEnv.killed).toBeUndefined();
    expect(viaEnv.stdout).toBe('');
  });
});

/** COMPREPLY after the bash script's completion function runs on `words` (the last being typed). */
async function bashReply(words: string[], after = ''): Promise<string> {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const probe = `source script.bash
COMP_WORDS=(linkerd ${quoted}); COMP_CWORD=${words.length}; COMP_LINE="\${COMP_WORDS[*]}"; COMP_POINT=\${#COMP_LINE}
_linkerd_completions
printf '%s\\n' "\${COMPREPLY[@]}"
${after}`;
  const r = await run('bash', ['--norc', '--noprofile', '-c', probe], { cwd: dir, env: shellEnv(), timeout: 30_000 });
  return r.stdout;
}

describe('the bash script', () => {
  it('offers hostile context names literally and runs none of them', async () => {
    expect(await bashReply(['--kubeconfig', kubeconfig, '--context', 'p'])).toBe(`${DOLLAR}\n${BACKTICK}\n`);
    expectNoMarkers();
  });

  it('quotes the one candidate it inserts, so the command line gets the name back as one word', async () => {
    const words = ['--kubeconfig', kubeconfig, '--context', 'prod-$'];
    // What bash puts on the line is shell syntax; read back as a word it is the name again.
    const out = await bashReply(words, `eval "set -- \${COMPREPLY[0]}"; printf '%s|%s\\n' "$#" "$1"`);
    const [inserted, readBack] = out.split('\n');
    expect(inserted).not.toBe(DOLLAR);
    expect(readBack).toBe(`1|${DOLLAR}`);
    expectNoMarkers();
  });

  it('offers hostile namespace names from the API server literally', async () => {
    expect(await bashReply(['--kubeconfig', kubeconfig, 'check', '-n', 's'])).toBe('shop-red\nshop-$(touch pwned-dollar)\n');
    expectNoMarkers();
  });

  it('offers nothing (so bash completes files) when the kubeconfig is a FIFO', async () => {
    expect(await bashReply(['--kubeconfig', fifo, '--context', ''])).toBe('\n');
  });
});

describe('the fish script', () => {
  /** What fish offers for `line` (fish's own `complete -C`, which runs the registered completion). */
  async function fishOffers(line: string): Promise<string[]> {
    const r = await run('fish', ['--no-config', '-c', `source script.fish; complete -C ${JSON.stringify(line).replace(/\$/g, '\\$')}`], {
      cwd: dir,
      env: shellEnv(),
    });
    return r.stdout.split('\n').filter((l) => l !== '');
  }

  it('offers hostile context names literally and runs none of them', async () => {
    expect(await fishOffers(`linkerd --kubeconfig ${kubeconfig} --context p`)).toEqual([DOLLAR, BACKTICK]);
    // The word typed is passed unescaped, and an empty one is passed too.
    expect(await fishOffers(`linkerd --kubeconfig ${kubeconfig} --context prod-\\$`)).toEqual([DOLLAR]);
    expect(await fishOffers(`linkerd --kubeconfig ${kubeconfig} --context `)).toEqual([DOLLAR, BACKTICK]);
    expectNoMarkers();
  });

  it('offers files only where linkerd has no candidates', async () => {
    expect(await fishOffers('linkerd inject script.')).toEqual(['script.bash', 'script.fish', 'script.zsh']);
    expect(await fishOffers(`linkerd --kubeconfig ${fifo} --context `)).not.toContain(DOLLAR);
  });
});

/*
 * The real thing: an interactive shell in tmux, a TAB pressed, and the completed line run as
 * `printf` arguments — so what the shell inserted is read back as the words it means.
 */
describe.each([
  { shell: 'bash', typed: 'prod-$' },
  { shell: 'zsh', typed: 'prod-\\$' },
])('$shell on TAB, in a terminal', ({ shell, typed }) => {
  const socket = `l5d-complete-${process.pid}-${shell}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });

  async function until(what: string, ready: () => boolean): Promise<void> {
    // A bounded number of looks, not a deadline: each look is 50 ms apart.
    for (let look = 0; look < 400; look++) {
      if (ready()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${shell} never showed ${what}; the pane:\n${tmux('capture-pane', '-p', '-t', 't')}`);
  }

  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  });

  it('inserts the context name quoted, runs nothing, and the line means the name', async () => {
    const rc = path.join(dir, `${shell}rc`);
    mkdirSync(rc, { recursive: true });
    writeFileSync(path.join(rc, '.zshrc'), `fpath=(${rc} $fpath)\nautoload -U compinit && compinit -u -D\nPS1='ready%# '\n`);
    writeFileSync(path.join(rc, '_linkerd'), readFileSync(path.join(dir, 'script.zsh')));
    writeFileSync(path.join(rc, 'bashrc'), `source ${path.join(dir, 'script.bash')}\nPS1='ready$ '\n`);
    const env = Object.entries(shellEnv({ ZDOTDIR: rc, TERM: 'xterm' })).map(([k, v]) => `${k}=${v ?? ''}`);
    const command = shell === 'bash' ? ['bash', '--rcfile', path.join(rc, 'bashrc'), '--noprofile', '-i'] : ['zsh', '-i'];
    tmux('new-session', '-d', '-s', 't', '-x', '200', '-y', '50', '-c', dir, 'env', '-i', ...env, ...command);
    const pane = () => tmux('capture-pane', '-p', '-t', 't');
    await until('its prompt', () => pane().includes('ready'));
    const got = path.join(dir, `${shell}-got`);
    tmux('send-keys', '-t', 't', '-l', `linkerd --kubeconfig ${kubeconfig} --context ${typed}`);
    tmux('send-keys', '-t', 't', 'Tab');
    await until('the completed name', () => /\(touch.*\)/.test(pane()));
    tmux('send-keys', '-t', 't', 'C-a');
    tmux('send-keys', '-t', 't', '-l', `printf '%s\\n' `);
    tmux('send-keys', '-t', 't', 'C-e');
    tmux('send-keys', '-t', 't', '-l', ` > ${got}`);
    tmux('send-keys', '-t', 't', 'Enter');
    await until('the printed words', () => existsSync(got) && readFileSync(got, 'utf8').endsWith('\n'));
    expect(readFileSync(got, 'utf8')).toBe(['linkerd', '--kubeconfig', kubeconfig, '--context', DOLLAR, ''].join('\n'));
    expectNoMarkers();
  });
});

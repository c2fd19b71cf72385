import { execFileSync, spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../../support/apiserver.js';
import { LINKERD_BIN } from '../../../support/cli.js';
import { OUTBOUND, type TapEvent } from '../../../../src/families/viz/tap/proto.js';
import { eventFrames, vizNamespace } from '../../../support/tap-events.js';

/*
 * `viz top` in a real terminal (tmux): the table appears and refreshes as events arrive, rows
 * re-sort by count, q quits, and the terminal is as it was (main screen, cursor shown).
 */

let stream = 0n;
function request(dst: string, path: string): TapEvent[] {
  const id = { base: 1, stream: stream++ };
  const base = { sourceMeta: { pod: 'web' }, destinationMeta: { pod: dst }, proxyDirection: OUTBOUND };
  return [
    { ...base, http: { kind: 'requestInit', id, method: { registered: 0 }, authority: 'a', path, headers: [] } },
    { ...base, http: { kind: 'responseInit', id, httpStatus: 200, headers: [] } },
    { ...base, http: { kind: 'responseEnd', id, sinceRequestInit: { seconds: 0n, nanos: 2_000_000 }, responseBytes: 0n, trailers: [] } },
  ];
}

describe('viz top in a terminal (tmux)', () => {
  const socket = `l5d-top-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const pane = () => tmux('capture-pane', '-p', '-t', 't');
  let server: ApiServer;
  let live: ServerResponse | undefined;

  async function until(what: string, ready: () => boolean): Promise<void> {
    // A bounded number of looks, not a deadline: each look is 50 ms apart.
    for (let look = 0; look < 300; look++) {
      if (ready()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never showed ${what}; the pane:\n${pane()}`);
  }

  beforeAll(async () => {
    server = await startApiServer({ objects: [vizNamespace] });
    server.setTap((_call, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.flushHeaders();
      live = res;
    });
  });
  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await server.stop();
  });

  it('refreshes the table sorted by count, quits on q and restores the terminal', async () => {
    const env = [`PATH=${process.env.PATH ?? ''}`, `HOME=${process.env.HOME ?? ''}`, 'TERM=xterm'];
    const script = `echo BEFORE-TOP; ${LINKERD_BIN} viz top deploy/web -n emojivoto --kubeconfig ${server.kubeconfigPath}; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', 't', '-x', '160', '-y', '30', 'env', '-i', ...env, 'sh', '-c', script);
    await until('the table header', () => pane().includes('Success Rate'));
    expect(tmux('display', '-p', '-t', 't', '#{alternate_on}').trim()).toBe('1');
    expect(pane()).toContain('(press q to quit)');
    expect(pane()).not.toContain('BEFORE-TOP');

    for (const f of eventFrames(request('emoji', '/list'))) live!.write(f);
    await until('the first row', () => pane().includes('emoji'));
    for (const f of eventFrames([...request('voting', '/vote'), ...request('voting', '/vote')])) live!.write(f);
    await until('the voting row with a count of 2', () => / voting .* 2 /.test(pane()));
    const rows = pane()
      .split('\n')
      .filter((l) => l.startsWith('web '));
    expect(rows.map((l) => l.split(/\s+/).slice(0, 5))).toEqual([
      ['web', 'voting', 'GET', '/vote', '2'],
      ['web', 'emoji', 'GET', '/list', '1'],
    ]);

    tmux('send-keys', '-t', 't', 'q');
    await until('the exit status', () => pane().includes('EXIT=0'));
    expect(tmux('display', '-p', '-t', 't', '#{alternate_on}').trim()).toBe('0');
    expect(tmux('display', '-p', '-t', 't', '#{cursor_flag}').trim()).toBe('1');
    expect(pane()).toContain('BEFORE-TOP');
    expect(pane()).not.toContain('Success Rate');
  });

  it('without a controlling terminal, fails as termbox does', async () => {
    const child = spawn(LINKERD_BIN, ['viz', 'top', 'deploy/web', '--kubeconfig', server.kubeconfigPath], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect([code, err]).toEqual([1, 'Error: open /dev/tty: no such device or address\n']);
  });
});

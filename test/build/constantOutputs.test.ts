import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constantRequests, fileOf } from '../../src/build/constantOutputs.js';
import { loadAllCommands } from '../../src/cli/main.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../core/install/support.js';

/*
 * bin/linkerd prints the help of every command and `version --client` from the files the build
 * made (dist/fast), without node, when nothing could change them (src/build/constantOutputs.ts).
 * Every file must be exactly what the CLI prints with the fast path disabled, and every doubt
 * (a variable a run reads, node's own switches, a stale file, other arguments) must start node.
 *
 * The launcher is run from a copy of the tree (bin/, dist/fast/, a stand-in dist/bundle/run.js)
 * with a `node` on PATH that only says it ran: an answer that reached node shows, and the copy's
 * modification times can be set freely.
 */

const FAST = path.join(ROOT, 'dist/fast');
const NODE_RAN = 'node ran\n';

let dir: string;
let tree: string;
let launcher: string;
let fakePath: string;
let requests: { help: string[][]; bare: string[][]; other: string[][] };
let served: Set<string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'linkerd-fast-'));
  tree = path.join(dir, 'tree');
  mkdirSync(path.join(tree, 'bin'), { recursive: true });
  mkdirSync(path.join(tree, 'dist/bundle'), { recursive: true });
  launcher = path.join(tree, 'bin/linkerd');
  copyFileSync(path.join(ROOT, 'bin/linkerd'), launcher);
  chmodSync(launcher, 0o755);
  cpSync(FAST, path.join(tree, 'dist/fast'), { recursive: true });
  rmSync(path.join(tree, 'dist/fast/ca'), { force: true });
  writeFileSync(path.join(tree, 'dist/bundle/run.js'), '');
  copyFileSync(path.join(ROOT, 'dist/bundle/build-id'), path.join(tree, 'dist/bundle/build-id'));
  const fakeBin = path.join(dir, 'fakebin');
  mkdirSync(fakeBin);
  writeFileSync(path.join(fakeBin, 'node'), `#!/bin/sh\nprintf '${NODE_RAN.trim()}\\n' >&2\nexit 99\n`);
  chmodSync(path.join(fakeBin, 'node'), 0o755);
  fakePath = `${fakeBin}:/usr/local/bin:/usr/bin:/bin`;
  requests = constantRequests(await loadAllCommands());
  served = new Set(readdirSync(FAST).filter((f) => f.startsWith('linkerd')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The copy's launcher, with only PATH (the stand-in node first), HOME and `extra` in its environment. */
function fast(args: readonly string[], extra: NodeJS.ProcessEnv = {}, bin = launcher): Run {
  const r = spawnSync(bin, args, { env: { PATH: fakePath, HOME: '/nonexistent', ...extra }, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI in this process; with `tty`, stdout looks like a 20-column colour terminal to commander. */
async function full(args: readonly string[], tty = false): Promise<Run> {
  if (!tty) return runCli(args);
  const out = process.stdout as { isTTY?: boolean; columns?: number; hasColors?: () => boolean };
  const saved = { isTTY: out.isTTY, columns: out.columns, hasColors: out.hasColors };
  Object.assign(out, { isTTY: true, columns: 20, hasColors: () => true });
  try {
    return await runCli(args);
  } finally {
    Object.assign(out, saved);
  }
}

describe('the constant outputs', () => {
  it('cover the help of every command path (by name and alias), bare groups and version --client, and nothing else', () => {
    const expected = new Set([...requests.help, ...requests.bare, ...requests.other].map(fileOf));
    for (const f of served) expect(expected, `${f} is served but is no constant request`).toContain(f);
    // Every path's --help, -h and `help <path>` is served, and the explicit ones.
    for (const args of [...requests.help, ...requests.other]) expect(served, `${fileOf(args)} is not served`).toContain(fileOf(args));
    expect(requests.help.length).toBeGreaterThan(150);
    for (const f of ['linkerd', 'linkerd.viz', 'linkerd.mc', 'linkerd.dg', 'linkerd.identity.rotate', 'linkerd.version.--client']) expect(served).toContain(f);
    // `identity` runs on its own (it takes pods): not a bare group.
    expect(served).not.toContain('linkerd.identity');
  });

  it('are, for every request, what the CLI prints (exit 0, nothing on stderr), also to a narrow colour terminal, served without node', async () => {
    const all = [...requests.help, ...requests.bare, ...requests.other].filter((a) => served.has(fileOf(a)));
    for (const args of all) {
      const want = await full(args);
      expect({ args, ...want }).toEqual({ args, code: 0, stdout: readFileSync(path.join(FAST, fileOf(args)), 'utf8'), stderr: '' });
      // No escape sequence (commander's colour stripping changes nothing) and no wrapping to the terminal.
      expect(want.stdout).not.toContain('\u001b');
      expect(await full(args, true)).toEqual(want);
      expect({ args, ...fast(args) }).toEqual({ args, ...want });
    }
  });

  it('are the same as the real launcher prints from the snapshot and from the bundle', () => {
    const real = (args: string[], extra: NodeJS.ProcessEnv) => {
      const r = spawnSync(path.join(ROOT, 'bin/linkerd'), args, {
        env: { PATH: process.env.PATH, HOME: '/nonexistent', KUBECONFIG: '/nonexistent', ...extra },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    for (const args of [
      [],
      ['--help'],
      ['viz', '-h'],
      ['help', 'viz', 'install'],
      ['mc'],
      ['dg', 'ep', '--help'],
      ['version', '--client'],
      ['version', '--short', '--client'],
    ]) {
      const served = real(args, {});
      expect(served.stdout).toBe(readFileSync(path.join(FAST, fileOf(args)), 'utf8'));
      expect(real(args, { LINKERD_TS_NO_FAST: '1' })).toEqual(served);
      expect(real(args, { LINKERD_TS_NO_SNAPSHOT: '1' })).toEqual(served);
    }
  });
});

describe('bin/linkerd serves a constant output', () => {
  it('only for exactly the requests the build listed', () => {
    expect(fast(['--help']).stdout).toBe(readFileSync(path.join(FAST, 'linkerd.--help'), 'utf8'));
    for (const args of [
      ['--help', '--verbose'],
      ['version', '--client', '--verbose'],
      ['version'],
      ['version', '--client', '-o', 'json'],
      ['viz', '--help', 'extra'],
      ['--HELP'],
      ['viz', '--help=1'],
      ['viz/../..', '--help'],
      ['..', '--help'],
      ['viz.install', '--help'],
      ['', '--help'],
      ['identity'],
      ['unknown-plugin', '--help'],
      ['help', 'no-such-topic'],
      ['viz', 'install', '--help', '-h', '--help', '-h'],
    ]) {
      expect({ args, ...fast(args) }).toEqual({ args, code: 99, stdout: '', stderr: NODE_RAN });
    }
  });

  it('never while a variable a build-time run read is set (even empty), nor node, libuv or OpenSSL switches', () => {
    const read = (readFileSync(path.join(FAST, 'env'), 'utf8').split('\n')[1] ?? '').split(' ');
    expect(read).toContain('LINKERD_NAMESPACE');
    const set = [
      ...read,
      'NODE_OPTIONS',
      'NODE_DEBUG',
      'NODE_NO_WARNINGS',
      'NODE_EXTRA_CA_CERTS',
      'UV_THREADPOOL_SIZE',
      'OPENSSL_CONF',
      'LINKERD_TS_NO_FAST',
      'LINKERD_TS_NO_SNAPSHOT',
    ];
    for (const name of set) {
      for (const value of ['1', '']) {
        if (value === '' && name.startsWith('LINKERD_TS_NO_')) continue;
        expect({ name, ...fast(['version', '--client'], { [name]: value }) }).toEqual({ name, code: 99, stdout: '', stderr: NODE_RAN });
      }
    }
  });

  it('under NODE_EXTRA_CA_CERTS only for the file the build checked, unchanged', () => {
    const pem = path.join(dir, 'extra.pem');
    writeFileSync(pem, '');
    const id = spawnSync('stat', ['-L', '-c', '%d:%i:%s:%Y:%Z', '--', pem], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(path.join(tree, 'dist/fast/ca'), `${pem}\n${id}\n`);
    try {
      const help = readFileSync(path.join(FAST, 'linkerd.--help'), 'utf8');
      expect(fast(['--help'], { NODE_EXTRA_CA_CERTS: pem }).stdout).toBe(help);
      expect(fast(['--help'], { NODE_EXTRA_CA_CERTS: `${dir}/./extra.pem` }).stderr).toBe(NODE_RAN);
      writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
      expect(fast(['--help'], { NODE_EXTRA_CA_CERTS: pem }).stderr).toBe(NODE_RAN);
    } finally {
      rmSync(path.join(tree, 'dist/fast/ca'));
    }
  });

  it('never from files another build of the bundle made, nor without a bundle or node', () => {
    const id = path.join(tree, 'dist/bundle/build-id');
    const ours = readFileSync(id, 'utf8');
    expect(ours).toBe(`${readFileSync(path.join(FAST, 'env'), 'utf8').split('\n')[0] ?? ''}\n`);
    // A bundle built again (its id changed) or with no id: node answers.
    for (const other of [ours.replace(/^./, (c) => (c === '0' ? '1' : '0')), '', '\n']) {
      writeFileSync(id, other);
      expect(fast(['--help']).stderr).toBe(NODE_RAN);
    }
    rmSync(id);
    expect(fast(['--help']).stderr).toBe(NODE_RAN);
    writeFileSync(id, ours);
    expect(fast(['--help']).code).toBe(0);
    const bundle = path.join(tree, 'dist/bundle/run.js');
    rmSync(bundle);
    try {
      expect(fast(['--help']).stderr).toBe(NODE_RAN);
    } finally {
      writeFileSync(bundle, '');
    }
    // No node on PATH (only the tools the launcher uses): it fails as it would without the fast path.
    const tools = path.join(dir, 'tools');
    mkdirSync(tools);
    for (const t of ['cat', 'stat']) symlinkSync(spawnSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).stdout.trim(), path.join(tools, t));
    const noNode = spawnSync(launcher, ['--help'], { env: { PATH: tools }, encoding: 'utf8' });
    expect(noNode.status).toBe(127);
    expect(noNode.stdout).toBe('');
  });

  it('ends quietly (exit 0) when the reader closes the pipe early, as node does', async () => {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(launcher, ['--help'], { env: { PATH: fakePath }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      child.on('close', (c) => resolve(c));
    });
    expect(code).toBe(0);
  });
});

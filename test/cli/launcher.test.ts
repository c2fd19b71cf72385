import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../support/apiserver.js';
import { installManifestObjects } from '../core/check/support/install.js';
import { CERTS, ROOT, pinnedWebhookCredentials } from '../core/install/support.js';

/*
 * bin/linkerd starts the CLI from the V8 start-up snapshot (dist/snapshot) when the node on
 * PATH built it, else from the ES-module bundle (dist/bundle); `node bin/linkerd` always loads
 * the bundle. Every way in must behave the same, byte for byte.
 */

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

// LINKERD_TS_STACK=raw: stack traces name the bundle or snapshot file they ran from (startedFrom).
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: '/nonexistent',
  KUBECONFIG: '/nonexistent',
  LINKERD_TS_STACK: 'raw',
  ...extra,
});

/** The launcher as a user runs it (an executable), from `bin`, with `extra` in its environment. */
function launch(bin: string, args: string[], extra: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(bin, args, { cwd: ROOT, env: env(extra), encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const LAUNCHER = join(ROOT, 'bin/linkerd');
const ways: Record<string, (args: string[]) => Run> = {
  snapshot: (args) => launch(LAUNCHER, args),
  bundle: (args) => launch(LAUNCHER, args, { LINKERD_TS_NO_SNAPSHOT: '1' }),
  'node bin/linkerd': (args) => {
    const r = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env: env(), encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  },
};

/** Which build answered: a `--verbose` stack trace names the file its code was loaded from. */
function startedFrom(run: Run): 'snapshot' | 'bundle' | 'unknown' {
  const build = whichBuild(run);
  return build === 'bundle' || build === 'unknown' ? build : 'snapshot';
}
/** The snapshot (start, render, edit) or the bundle a `--verbose` stack trace was loaded from. */
function whichBuild(run: Run): string {
  const snapshot = /dist\/snapshot\/(\w+)\.cjs/.exec(run.stderr);
  if (snapshot?.[1]) return snapshot[1];
  return run.stderr.includes('dist/bundle/') ? 'bundle' : 'unknown';
}
const FAILING_VERBOSE = ['install', '--ignore-cluster', '--set', 'noSuchKey=1', '--verbose'];

let dir: string;
let pinnedArgs: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkerd-launcher-'));
  const values: Record<string, unknown> = { heartbeatSchedule: '17 3 * * *' };
  for (const [key, c] of Object.entries(await pinnedWebhookCredentials())) values[key] = { crtPEM: c.certPem, keyPEM: c.keyPem };
  writeFileSync(join(dir, 'pinned.yaml'), yaml.dump(values));
  pinnedArgs = [
    'install',
    '--ignore-cluster',
    '--identity-trust-anchors-file',
    `${CERTS}/valid-trust-anchors.pem`,
    '--identity-issuer-certificate-file',
    `${CERTS}/valid-crt.pem`,
    '--identity-issuer-key-file',
    `${CERTS}/valid-key.pem`,
    '-f',
    join(dir, 'pinned.yaml'),
  ];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bin/linkerd', () => {
  it('has a start-up snapshot for this node after the build, and starts from it', () => {
    // The build skips the snapshots only on a node that cannot require() ES modules.
    for (const name of ['start', 'render', 'edit']) expect(existsSync(join(ROOT, `dist/snapshot/${name}.blob`))).toBe(process.features.require_module);
    const r = ways.snapshot(FAILING_VERBOSE);
    expect(r.status).toBe(1);
    expect(startedFrom(r)).toBe(process.features.require_module ? 'snapshot' : 'bundle');
    expect(startedFrom(ways.bundle(FAILING_VERBOSE))).toBe('bundle');
    expect(startedFrom(ways['node bin/linkerd'](FAILING_VERBOSE))).toBe('bundle');
  });

  it.runIf(process.features.require_module)('starts the installs from the render snapshot, inject and analyze from edit, everything else from start', () => {
    // A namespace that is not one fails in the global flags, with a stack trace under --verbose.
    const bad = ['-L', 'not a namespace!', '--verbose'];
    expect(whichBuild(ways.snapshot(FAILING_VERBOSE))).toBe('render');
    expect(whichBuild(ways.snapshot([...bad, 'viz', 'install', '--ignore-cluster']))).toBe('render');
    expect(whichBuild(ways.snapshot([...bad, 'analyze', 'fixtures/manifests/shop.yaml']))).toBe('edit');
    expect(whichBuild(ways.snapshot([...bad, 'inject', '--ignore-cluster', 'fixtures/manifests/shop.yaml']))).toBe('edit');
    expect(whichBuild(ways.snapshot([...bad, 'version', '--client']))).toBe('start');
    expect(whichBuild(ways.snapshot([...bad, 'viz', 'list']))).toBe('bundle');
    // A command neither snapshot holds (check) starts from `start`, which hands the run to the bundle.
    expect(whichBuild(ways.snapshot([...bad, 'check']))).toBe('bundle');
  });

  const cases: Array<[string, () => string[]]> = [
    ['a pinned install (YAML)', () => pinnedArgs],
    ['a pinned install (JSON)', () => [...pinnedArgs, '-o', 'json']],
    ['install --crds', () => ['install', '--crds']],
    ['install --ha with flags', () => [...pinnedArgs, '--ha', '--controller-replicas', '2', '--set', 'proxy.logLevel=debug']],
    ['version --client', () => ['version', '--client']],
    ['a bad flag', () => ['install', '--no-such-flag']],
    ['an invalid value', () => ['install', '--ignore-cluster', '--controller-log-level', 'loud']],
    ['a missing certificate file', () => ['install', '--ignore-cluster', '--identity-trust-anchors-file', 'nope.pem']],
    ['help', () => ['install', '--help']],
    // Arguments that look like node's own options reach the CLI, not node.
    ['global flags first', () => ['-L', 'linkerd', '--verbose', 'version', '--client']],
    ['--help first', () => ['--help']],
    ['-- inside the arguments', () => ['version', '--client', '--', '--short']],
    [
      'inject --manual',
      () => ['inject', '--manual', '--ignore-cluster', '--identity-trust-anchors-file', `${CERTS}/valid-trust-anchors.pem`, 'fixtures/manifests/shop.yaml'],
    ],
    ['a check that cannot reach the cluster', () => ['check', '--pre']],
    ['viz --help', () => ['viz', '--help']],
    ['help install (every command loaded)', () => ['help', 'install']],
    ['analyze of a file', () => ['analyze', 'fixtures/manifests/shop.yaml']],
    ['uninject of a file', () => ['uninject', 'fixtures/manifests/shop.yaml']],
  ];
  it.each(cases)('prints the same for %s, whichever way it starts', (_name, args) => {
    const [first, ...others] = Object.entries(ways).map(([way, run]) => ({ way, ...run(args()) }));
    expect(first.stdout.length + first.stderr.length).toBeGreaterThan(0);
    for (const other of others) {
      expect({ way: other.way, status: other.status, stdout: other.stdout, stderr: other.stderr }).toEqual({ ...first, way: other.way });
    }
  });

  it('generates new keys on every run from the snapshot (the build-time render leaves nothing behind)', () => {
    type Doc = { kind: string; metadata: { name: string }; data?: Record<string, string>; stringData?: Record<string, string> };
    const secrets = () => {
      const docs = yaml.loadAll(ways.snapshot(['install', '--ignore-cluster']).stdout) as Doc[];
      const secret = (name: string) => docs.find((d) => d.kind === 'Secret' && d.metadata.name === name)!;
      return [
        secret('linkerd-identity-issuer').data!['key.pem'],
        ...['linkerd-proxy-injector-k8s-tls', 'linkerd-sp-validator-k8s-tls', 'linkerd-policy-validator-k8s-tls'].map((n) => secret(n).data!['tls.key']),
      ];
    };
    const [first, second] = [secrets(), secrets()];
    expect(first.every((k) => typeof k === 'string' && k.length > 100)).toBe(true);
    first.forEach((key, i) => expect(second[i]).not.toBe(key));
  });

  it('loads @kubernetes/client-node at run time for an exec-plugin user (no dynamic import() in a snapshot)', async () => {
    const server = await startApiServer({ objects: await installManifestObjects() });
    try {
      const plugin = join(dir, 'token-plugin');
      const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: server.token } };
      writeFileSync(plugin, `#!/bin/sh\necho '${JSON.stringify(credential)}'\n`);
      chmodSync(plugin, 0o755);
      const kubeconfig = yaml.load(readFileSync(server.kubeconfigPath, 'utf8')) as { users: Array<{ user: Record<string, unknown> }> };
      kubeconfig.users[0].user = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } };
      const path = join(dir, 'exec-kubeconfig');
      writeFileSync(path, yaml.dump(kubeconfig));
      // Asynchronously: this process serves the API meanwhile.
      const out = await new Promise<string>((resolve) => {
        const child = spawn(LAUNCHER, ['version', '--kubeconfig', path], { cwd: ROOT, env: env() });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.on('close', () => resolve(stdout));
      });
      expect(out).toBe('Client version: edge-26.9.1\nServer version: edge-26.9.1\n');
      expect(server.requests.some((q) => q.path === '/api/v1/namespaces/linkerd/configmaps/linkerd-config')).toBe(true);
    } finally {
      await server.stop();
    }
  });

  describe('falls back to the bundle whenever the snapshot might not fit', () => {
    /** What the build records for `files` (bin/linkerd compares the same `stat` output). */
    const statIds = (...files: string[]) =>
      spawnSync('stat', ['-L', '-c', '%d:%i:%s:%Y:%Z', '--', ...files], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n');
    /** A stamp as the build writes it, routing as the real one does, with the render blob alone. */
    const stamp = (node: string, blob: string) => {
      const [nodeId, blobId] = statIds(node, blob);
      const routing = readFileSync(join(ROOT, 'dist/snapshot/node'), 'utf8')
        .split('\n')
        .filter((l) => /^(flags|default|route)=/.test(l));
      return [`path=${node}`, `version=${process.version}`, `node=${nodeId}`, ...routing, `blob=render ${blobId}`].join('\n') + '\n';
    };

    /**
     * A copy of the launcher in a project whose dist/ points at the real build, with its own
     * snapshot directory: the real blob linked, copied (dated `blobTime`) or missing, and a stamp.
     */
    function project(name: string, o: { blob: 'link' | 'copy' | 'none'; blobTime?: Date; stamp?: (blob: string) => string }): string {
      const root = join(dir, name);
      mkdirSync(join(root, 'bin'), { recursive: true });
      mkdirSync(join(root, 'dist/snapshot'), { recursive: true });
      copyFileSync(LAUNCHER, join(root, 'bin/linkerd'));
      symlinkSync(join(ROOT, 'dist/bundle'), join(root, 'dist/bundle'));
      symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
      const real = join(ROOT, 'dist/snapshot/render.blob');
      const blob = join(root, 'dist/snapshot/render.blob');
      if (o.blob === 'link') symlinkSync(real, blob);
      if (o.blob === 'copy') copyFileSync(real, blob);
      if (o.blobTime) utimesSync(blob, o.blobTime, o.blobTime);
      writeFileSync(join(root, 'dist/snapshot/node'), (o.stamp ?? ((b) => stamp(process.execPath, b)))(o.blob === 'none' ? real : blob));
      return join(root, 'bin/linkerd');
    }
    const fits = process.features.require_module;

    it.runIf(fits)('uses the snapshot when the stamp names this node and this blob', () => {
      const bin = project('fits', { blob: 'link' });
      expect(startedFrom(launch(bin, FAILING_VERBOSE))).toBe('snapshot');
    });

    it.runIf(fits)('uses the snapshot when the node on PATH is a symbolic link to the node that built it', () => {
      const bin = join(dir, 'node-link-bin');
      mkdirSync(bin);
      symlinkSync(process.execPath, join(bin, 'node'));
      const r = launch(LAUNCHER, FAILING_VERBOSE, { PATH: `${bin}:${process.env.PATH}` });
      expect(startedFrom(r)).toBe('snapshot');
    });

    it('loads the bundle when NODE_OPTIONS carries a V8 flag (node would refuse the snapshot: exit 14)', () => {
      for (const options of ['--max-old-space-size=4096', '--stack-trace-limit=50 --no-warnings']) {
        const r = launch(LAUNCHER, ['version', '--client'], { NODE_OPTIONS: options });
        expect([r.status, r.stdout, r.stderr]).toEqual([0, 'Client version: edge-26.9.1\n', '']);
        expect(startedFrom(launch(LAUNCHER, FAILING_VERBOSE, { NODE_OPTIONS: options }))).toBe('bundle');
      }
    });

    it('loads the bundle when another node built the snapshot', () => {
      const bin = project('other-node', {
        blob: 'link',
        stamp: (b) => stamp(process.execPath, b).replace(`path=${process.execPath}`, 'path=/opt/other/bin/node'),
      });
      const r = launch(bin, FAILING_VERBOSE);
      expect([r.status, startedFrom(r)]).toEqual([1, 'bundle']);
      expect(launch(bin, ['version', '--client']).stdout).toBe('Client version: edge-26.9.1\n');
    });

    it.runIf(fits)('loads the bundle when node was replaced at the same path, even keeping its modification time (a package upgrade)', () => {
      const nodeDir = join(dir, 'upgraded-node');
      mkdirSync(nodeDir);
      const node = join(nodeDir, 'node');
      const installNode = () => {
        // As a package manager does: write a new file, keep the packaged mtime, rename it into place.
        copyFileSync(process.execPath, `${node}.new`);
        chmodSync(`${node}.new`, 0o755);
        utimesSync(`${node}.new`, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
        renameSync(`${node}.new`, node);
      };
      installNode();
      const bin = project('upgraded', { blob: 'link', stamp: (b) => stamp(node, b) });
      const PATH = `${nodeDir}:${process.env.PATH}`;
      expect(startedFrom(launch(bin, FAILING_VERBOSE, { PATH }))).toBe('snapshot');
      installNode();
      const r = launch(bin, ['version', '--client'], { PATH });
      expect([r.status, r.stdout]).toEqual([0, 'Client version: edge-26.9.1\n']);
      expect(startedFrom(launch(bin, FAILING_VERBOSE, { PATH }))).toBe('bundle');
    });

    it('loads the bundle when the blob is missing', () => {
      const bin = project('no-blob', { blob: 'none' });
      expect(startedFrom(launch(bin, FAILING_VERBOSE))).toBe('bundle');
      expect(launch(bin, ['version', '--client']).stdout).toBe('Client version: edge-26.9.1\n');
    });

    it('loads the bundle when the blob is older than the bundle (stale)', () => {
      const bin = project('stale-blob', { blob: 'copy', blobTime: new Date('2000-01-01T00:00:00Z') });
      expect(startedFrom(launch(bin, FAILING_VERBOSE))).toBe('bundle');
    });

    it('loads the bundle when the blob is not the one the stamp names (replaced or truncated)', () => {
      const bin = project('other-blob', { blob: 'copy', stamp: () => stamp(process.execPath, join(ROOT, 'dist/snapshot/render.blob')) });
      expect(startedFrom(launch(bin, FAILING_VERBOSE))).toBe('bundle');
      const truncated = join(dir, 'truncated', 'bin/linkerd');
      const tb = project('truncated', { blob: 'copy' });
      writeFileSync(join(dir, 'truncated/dist/snapshot/render.blob'), 'not a snapshot');
      expect(tb).toBe(truncated);
      const r = launch(tb, ['version', '--client']);
      expect([r.status, r.stdout]).toEqual([0, 'Client version: edge-26.9.1\n']);
    });

    it('is found through a symbolic link, as npm links it', () => {
      const link = join(dir, 'linkerd-link');
      symlinkSync(LAUNCHER, link);
      const r = launch(link, FAILING_VERBOSE);
      expect(startedFrom(r)).toBe(process.features.require_module ? 'snapshot' : 'bundle');
      expect(launch(link, ['version', '--client', '--short']).stdout).toBe('edge-26.9.1\n');
    });
  });
});

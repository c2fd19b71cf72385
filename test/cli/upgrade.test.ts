import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { RenderedObject } from '../../templates/control-plane/index.js';
import { type ApiServer, startApiServer } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';
import { kubectlWithInput } from '../support/kubectl.js';
import { keyOf, linkerdCrds, namespaceObject, meshedPod } from '../core/install/upgrade-support.js';

const docs = (text: string) => (yaml.loadAll(text) as RenderedObject[]).filter((d) => d !== null && d !== undefined);
const ENV = { KUBECONFIG: '/nonexistent/kubeconfig' };

describe('linkerd install | kubectl create, then linkerd upgrade | kubectl replace (CLI, real kubectl, loopback API server)', () => {
  let server: ApiServer;
  let k: string[];
  let install: string;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: linkerdCrds() });
    k = ['--kubeconfig', server.kubeconfigPath];
    const r = await runCli(['install', ...k], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    install = r.stdout;
    const created = await kubectlWithInput(server, install, 'create', '--validate=false', '-f', '-');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
  });
  afterAll(() => server.stop());

  it('upgrade with no flags renders the installed objects again; the API server accepts them as updates', async () => {
    const r = await runCli(['upgrade', ...k], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(docs(r.stdout).map(keyOf)).toEqual(docs(install).map(keyOf));
    // The stored configuration is the same: Secret linkerd-config-overrides is byte for byte unchanged.
    const overrides = (text: string) => docs(text).find((o) => o.metadata.name === 'linkerd-config-overrides');
    expect(overrides(r.stdout)).toEqual(overrides(install));
    // `kubectl apply` needs PATCH, which the loopback server does not serve; `replace` PUTs each object.
    const replaced = await kubectlWithInput(server, r.stdout, 'replace', '--dry-run=server', '--validate=false', '-f', '-');
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout.split('\n').filter((l) => l.endsWith('replaced (server dry run)'))).toHaveLength(docs(install).length);
  });

  it('--from-manifests - renders the same upgrade from install output on stdin, -o json one object per line', async () => {
    const r = await runCli(['upgrade', '--from-manifests', '-', '-o', 'json', '--kubeconfig', '/nonexistent/kubeconfig'], { input: install, env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => keyOf(JSON.parse(l) as RenderedObject))).toEqual(docs(install).map(keyOf));
  });

  it('a new trust anchor bundle warns on stderr; pflag-style --force=true is accepted', async () => {
    const r = await runCli(
      [
        'upgrade',
        ...k,
        '--identity-trust-anchors-file',
        'fixtures/certs/valid-trust-anchors.pem',
        '--identity-issuer-certificate-file',
        'fixtures/certs/valid-crt.pem',
        '--identity-issuer-key-file',
        'fixtures/certs/valid-key.pem',
        '--force=true',
      ],
      { env: ENV },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      '\n‼ Rotating the trust anchors will affect existing proxies\nSee https://linkerd.io/2/tasks/rotating_identity_certificates/ for more information\n\n',
    );
  });

  it('refusals print the real text without `Error:`, exit 1 and leave stdout empty', async () => {
    server.put(namespaceObject('shop'), meshedPod('shop', 'web-1', 'not a certificate'));
    try {
      const r = await runCli(['upgrade', ...k, '--identity-issuer-certificate-file', 'fixtures/certs/valid-crt.pem'], { env: ENV });
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(/^failed to validate issuer credentials: /);
      const pods = await runCli(['upgrade', ...k], { env: ENV });
      expect([pods.code, pods.stdout]).toEqual([1, '']);
      expect(pods.stderr).toBe(
        'You are attempting to use an issuer certificate which does not validate against the trust anchors of the following pods:\n\t* shop/web-1\n' +
          'These pods do not have the current trust bundle and must be restarted.  Use the --force flag to proceed anyway (this will likely prevent those pods from sending or receiving traffic).\n',
      );
      expect((await runCli(['upgrade', ...k, '--force'], { env: ENV })).code).toBe(0);
    } finally {
      server.remove('v1', 'Pod', 'web-1', 'shop');
    }
    const badOutput = await runCli(['upgrade', ...k, '-o', 'table'], { env: ENV });
    expect([badOutput.code, badOutput.stdout, badOutput.stderr]).toEqual([1, '', 'Error: --output supports "yaml" or "json" (got "table")\n']);
  });

  it('uninstall names what kubectl delete must remove, yaml with --- after each, or JSON lines', async () => {
    const r = await runCli(['uninstall', ...k], { env: ENV });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.startsWith('apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  creationTimestamp: null\n  name: ')).toBe(true);
    expect(r.stdout.endsWith('apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: null\n  name: linkerd\n---\n')).toBe(true);
    const json = await runCli(['uninstall', ...k, '-o', 'json'], { env: ENV });
    const lines = json.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('{"apiVersion":"v1","kind":"Namespace","metadata":{"creationTimestamp":null,"name":"linkerd"}}');
    expect(lines).toHaveLength(docs(r.stdout).length);
    // kubectl reads the stubs: a server-side dry-run delete of every one succeeds.
    const deleted = await kubectlWithInput(server, r.stdout, 'delete', '--dry-run=server', '-f', '-');
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
  });

  it('prune lists nothing on a fresh install, and a leftover once one exists', async () => {
    const clean = await runCli(['prune', ...k], { env: ENV });
    expect([clean.code, clean.stdout, clean.stderr]).toEqual([0, '', '']);
    server.put({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'linkerd-old', namespace: 'linkerd', labels: { 'linkerd.io/control-plane-ns': 'linkerd' } },
    });
    try {
      const r = await runCli(['prune', ...k], { env: ENV });
      expect(r.stdout).toBe('apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  creationTimestamp: null\n  name: linkerd-old\n  namespace: linkerd\n---\n');
    } finally {
      server.remove('v1', 'ServiceAccount', 'linkerd-old', 'linkerd');
    }
  });
});

describe('lifecycle commands on a cluster without Linkerd', () => {
  let bare: ApiServer;
  beforeAll(async () => {
    bare = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  });
  afterAll(() => bare.stop());

  it('upgrade asks for the CRDs first; uninstall has nothing to do; prune needs a CLI install', async () => {
    const k = ['--kubeconfig', bare.kubeconfigPath];
    const up = await runCli(['upgrade', ...k], { env: ENV });
    expect([up.code, up.stdout]).toEqual([1, '']);
    expect(up.stderr).toMatch(
      /^Linkerd CRDs must be installed first\. Run linkerd upgrade with the --crds flag:\nmissing authorizationpolicies\.policy\.linkerd\.io, /,
    );
    const un = await runCli(['uninstall', ...k], { env: ENV });
    expect([un.code, un.stdout, un.stderr]).toEqual([0, '', 'No resources found to uninstall\n']);
    const pr = await runCli(['prune', ...k], { env: ENV });
    expect([pr.code, pr.stdout]).toEqual([1, '']);
    expect(pr.stderr).toBe(
      'Error: Could not find the linkerd-config-overrides secret.\nPlease note this command is only intended for instances of Linkerd that were installed via the CLI\n',
    );
  });
});

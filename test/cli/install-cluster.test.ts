import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCrds } from '../../templates/crds/index.js';
import { type ApiServer, startApiServer } from '../support/apiserver.js';
import { parseDocs } from '../core/install/support.js';
import { runCli } from '../support/cli.js';

const crds = (gateway: boolean) => renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: gateway });

describe('linkerd install against a cluster (CLI, loopback API server)', () => {
  let bare: ApiServer;
  let ready: ApiServer;
  beforeAll(async () => {
    [bare, ready] = await Promise.all([
      startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' }),
      startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: crds(true) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([bare.stop(), ready.stop()]);
  });

  it('asks for the CRDs first, in the real CLI words and without `Error:`', async () => {
    const r = await runCli(['install', '--kubeconfig', bare.kubeconfigPath]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'Linkerd CRDs must be installed first. Run linkerd install with the --crds flag.\n']);
  });

  it('reports missing Gateway API CRDs for --crds, and renders them when asked to install them', async () => {
    const missing = await runCli(['install', '--crds', '--kubeconfig', bare.kubeconfigPath]);
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toMatch(/^Error: the Gateway API CRDs must be installed before Linkerd's/);
    expect(missing.stderr).toContain(
      'kubectl apply --server-side -f https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.1.1/standard-install.yaml',
    );
    const installing = await runCli(['install', '--crds', '--set', 'installGatewayAPI=true', '--kubeconfig', bare.kubeconfigPath]);
    expect(installing.code).toBe(0);
    expect(parseDocs(installing.stdout)).toHaveLength(14);
  });

  it('renders the control plane when the CRDs are installed', async () => {
    const r = await runCli(['install', '--kubeconfig', ready.kubeconfigPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(parseDocs(r.stdout).at(-1)!.metadata.name).toBe('linkerd-config-overrides');
  });

  it('refuses to install over an existing linkerd-config', async () => {
    ready.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'linkerd-config', namespace: 'linkerd' }, data: { values: '{}' } });
    try {
      const r = await runCli(['install', '--kubeconfig', ready.kubeconfigPath]);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe(
        "Can't install the Linkerd control plane in the 'linkerd' namespace. Reason: ConfigMap/linkerd-config already exists.\nRun the command `linkerd upgrade`, if you are looking to upgrade Linkerd.\n",
      );
      // --ignore-cluster skips every check.
      expect((await runCli(['install', '--ignore-cluster', '--kubeconfig', ready.kubeconfigPath])).code).toBe(0);
    } finally {
      ready.remove('v1', 'ConfigMap', 'linkerd-config', 'linkerd');
    }
  });
});

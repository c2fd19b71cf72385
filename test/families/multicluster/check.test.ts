import { afterEach, describe, expect, it } from 'vitest';
import { composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { cliContext, renderMulticluster } from '../../../src/families/multicluster/chart/render.js';
import { type ApiServer, type Denial, startApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';

/*
 * `linkerd multicluster check` and the same category inside `linkerd check`, against the
 * loopback API server holding an installed extension, Links and their controllers.
 */

const VERSION = 'edge-26.9.1';

/** The source cluster's extension namespace and the Link CRD, as install renders them. */
function installed(): object[] {
  const objects = renderMulticluster(composeInstallValues({ linkerdNamespace: 'linkerd' }), cliContext());
  return objects.filter((o) => o.kind === 'Namespace' || o.kind === 'CustomResourceDefinition');
}

function link(name: string, gateway: boolean, createdBy = `linkerd/cli ${VERSION}`): object {
  return {
    apiVersion: 'multicluster.linkerd.io/v1alpha3',
    kind: 'Link',
    metadata: { name, namespace: 'linkerd-multicluster', annotations: { 'linkerd.io/created-by': createdBy } },
    spec: {
      targetClusterName: name,
      targetClusterDomain: 'cluster.local',
      targetClusterLinkerdNamespace: 'linkerd',
      clusterCredentialsSecret: `cluster-credentials-${name}`,
      ...(gateway
        ? {
            gatewayAddress: '127.0.0.2',
            gatewayPort: '4143',
            gatewayIdentity: 'linkerd-gateway.linkerd-multicluster.serviceaccount.identity.linkerd.cluster.local',
            probeSpec: { path: '/ready', port: '4191', period: '3s', failureThreshold: '3', timeout: '30s' },
            selector: { matchLabels: { 'mirror.linkerd.io/exported': 'true' } },
          }
        : { probeSpec: {} }),
      remoteDiscoverySelector: { matchLabels: { 'mirror.linkerd.io/exported': 'remote-discovery' } },
      federatedServiceSelector: { matchLabels: { 'mirror.linkerd.io/federated': 'member' } },
    },
  };
}

function controller(cluster: string, available = 1): object {
  const labels = { component: 'controller', 'mirror.linkerd.io/cluster-name': cluster };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `controller-${cluster}`, namespace: 'linkerd-multicluster', labels },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'controller', image: 'x' }] } } },
    status: { availableReplicas: available },
  };
}

interface JsonReport {
  success: boolean;
  categories: Array<{ categoryName: string; checks: Array<{ description: string; result: string; error?: string }> }>;
}

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const mcCheck = async (objects: object[], extra: string[] = [], deny: Denial[] = []) => {
  server = await startApiServer({ objects, denials: deny });
  // versioncheck is asked by #13: a loopback port nothing listens on.
  return runCli(['multicluster', 'check', '--kubeconfig', server.kubeconfigPath, '--wait', '0s', ...extra], {
    env: { LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:9/version.json' },
  });
};

const checksOf = (stdout: string) => (JSON.parse(stdout) as JsonReport).categories.flatMap((c) => c.checks.map((k) => ({ ...k, category: c.categoryName })));

describe('linkerd multicluster check', () => {
  it('refuses a cluster without the extension namespace, with the real message', async () => {
    const r = await mcCheck([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('namespace with label "linkerd.io/extension: multicluster" not found');
  });

  it('refuses an output format it has not, naming the ones it has', async () => {
    const r = await runCli(['multicluster', 'check', '-o', 'junit']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Invalid output type 'junit'. Supported output types are: json, table, short");
  });

  it('asks no probe check of a gateway-less link; without its credentials Secret and RBAC the remote and RBAC checks fail with the real words', async () => {
    const r = await mcCheck([...installed(), link('east', false), controller('east')], ['-o', 'json']);
    expect(r.code).toBe(1);
    const checks = checksOf(r.stdout);
    expect(checks.every((c) => c.category === 'linkerd-multicluster')).toBe(true);
    expect(checks.map((c) => [c.description, c.result])).toEqual([
      ['Link CRD exists', 'success'],
      // A verbose success: the targets under the description, as the real check lists them.
      ['Link resources are valid\n\t* east', 'success'],
      ['Link and CLI versions match', 'success'],
      ['remote cluster access credentials are valid', 'error'],
      ['clusters share trust anchors', 'error'],
      ['service mirror controller has required permissions', 'error'],
      ['service mirror controllers are running', 'success'],
      ['extension is managing controllers', 'success'],
      ['all mirror services are part of a Link', 'success'],
      // No meshed pod in the Link's namespace.
      ['multicluster extension proxies are healthy', 'warning'],
      ['multicluster extension proxies and cli versions match', 'success'],
    ]);
    const byName = new Map(checks.map((c) => [c.description, c]));
    expect(byName.get('remote cluster access credentials are valid')?.error).toBe(
      '        * secret: [linkerd-multicluster/cluster-credentials-east]: secrets "cluster-credentials-east" not found',
    );
    expect(byName.get('clusters share trust anchors')?.error).toBe(
      'Problematic clusters:\n    * secret: [linkerd-multicluster/cluster-credentials-east]: secrets "cluster-credentials-east" not found',
    );
    // Both spellings (the legacy `link` one, then the `controllers:` one) are named when both are missing.
    expect(byName.get('service mirror controller has required permissions')?.error?.split('\n').slice(0, 4)).toEqual([
      'missing ServiceAccounts: linkerd-service-mirror-east',
      'missing ServiceAccounts: controller-east',
      'missing ClusterRoles: linkerd-service-mirror-access-local-resources-east',
      'missing ClusterRoles: linkerd-multicluster-controller-access-local-resources',
    ]);
    expect(byName.get('multicluster extension proxies are healthy')?.error).toBe('no "linkerd-proxy" containers found in the "linkerd-multicluster" namespace');
  });

  it('fails a link with a gateway but no probe gateway mirror, and a controller not available', async () => {
    const r = await mcCheck([...installed(), link('west', true, 'linkerd/cli edge-25.1.1'), controller('west', 0)], ['-o', 'json']);
    expect(r.code).toBe(1);
    const byName = new Map(checksOf(r.stdout).map((c) => [c.description, c]));
    expect(byName.get('probe services able to communicate with all gateway mirrors')?.error).toBe('wrong number (0) of probe gateways for target cluster west');
    expect(byName.get('service mirror controllers are running')?.error).toBe(
      '* service mirror controller is not available: linkerd-multicluster/controller-west',
    );
    expect(byName.get('Link and CLI versions match')).toMatchObject({
      result: 'warning',
      error: `        * west: CLI version is ${VERSION} but Link version is edge-25.1.1`,
    });
  });

  describe('Link CRD exists: discovery of multicluster.linkerd.io/v1alpha3, then `list links` everywhere', () => {
    const first = async (objects: object[], deny: Denial[] = []) => {
      const r = await mcCheck(objects, ['-o', 'json'], deny);
      expect(r.code).toBe(1);
      return checksOf(r.stdout);
    };

    it('fails (fatal: nothing after it runs) when the API does not serve the group version', async () => {
      const namespaceOnly = installed().filter((o) => (o as { kind: string }).kind === 'Namespace');
      expect(await first(namespaceOnly)).toEqual([
        expect.objectContaining({
          description: 'Link CRD exists',
          result: 'error',
          error: 'multicluster.linkerd.io/Link CRD is missing: the server could not find the requested resource',
        }),
      ]);
      const paths = server?.requests.map((q) => q.path) ?? [];
      expect(paths).toContain('/apis/multicluster.linkerd.io/v1alpha3');
      expect(paths).not.toContain('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    });

    it('fails when this user may not list Links in every namespace, with the review reason', async () => {
      const checks = await first(installed(), [{ verb: 'list', group: 'multicluster.linkerd.io', resource: 'links', reason: 'RBAC: no list' }]);
      expect(checks).toEqual([
        expect.objectContaining({
          description: 'Link CRD exists',
          result: 'error',
          error: 'multicluster.linkerd.io/Link CRD is missing: not authorized to access links.multicluster.linkerd.io: RBAC: no list',
        }),
      ]);
    });
  });

  it('prints the table with the category header', async () => {
    const r = await mcCheck([...installed(), link('east', false), controller('east')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('linkerd-multicluster\n--------------------');
    expect(r.stdout).toContain('√ Link CRD exists');
  });
});

describe('linkerd check with multicluster installed', () => {
  it('runs the linkerd-multicluster category in-process', async () => {
    server = await startApiServer({ objects: [...installed(), link('east', false), controller('east', 0)] });
    const r = await runCli(['check', '--kubeconfig', server.kubeconfigPath, '--only', 'linkerd-multicluster', '--wait', '0s', '-o', 'json'], {
      env: { LINKERD_VERSIONCHECK_URL: 'http://127.0.0.1:9/version.json' },
    });
    const checks = checksOf(r.stdout).filter((c) => c.category === 'linkerd-multicluster');
    expect(checks.map((c) => c.description)).toContain('service mirror controllers are running');
    expect(r.code).toBe(1);
  });
});

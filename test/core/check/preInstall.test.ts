import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../support/apiserver-store.js';
import { edit, healthyCluster } from './support/clusters.js';
import { installManifestObjects } from './support/install.js';
import { render } from './support/render.js';
import { checkAgainst, core, result, summary } from './support/run.js';

const HINTS = 'https://linkerd.io/2/checks/#';

/** A cluster before `linkerd install`: nothing but the base objects and the Gateway API CRDs. */
async function freshCluster(): Promise<StoredObject[]> {
  const cluster = await healthyCluster();
  return cluster.objects.filter(
    (o) =>
      o.metadata.namespace !== 'linkerd' &&
      !o.metadata.name.startsWith('linkerd') &&
      !(o.kind === 'CustomResourceDefinition' && !o.metadata.name.includes('gateway')),
  );
}

describe('linkerd check --pre', () => {
  it('passes on a fresh cluster, checking what the install renders', async () => {
    const objects = await freshCluster();
    const { report, server } = await checkAgainst(objects, { mode: 'pre', ...core({ installObjects: installManifestObjects }) });
    expect(summary(report)).toEqual([
      'L5D1001 success',
      'L5D1002 success',
      'L5D1101 success',
      'L5D1201 success',
      'L5D1301 success',
      'L5D1302 success',
      'L5D1303 success',
      'L5D1304 success',
      'L5D1305 success',
      'L5D1306 success',
      'L5D1307 success',
      'L5D1308 success',
      'L5D1309 success',
      'L5D1310 success',
      'L5D1311 success',
      'L5D1312 success',
      'L5D2101 success',
      'L5D2102 success',
    ]);
    const rendered = await installManifestObjects();
    const clusterScoped = rendered.filter((o) => !o.metadata?.namespace);
    const dryRuns = server.requests.filter((r) => r.method === 'POST' && r.query.startsWith('dryRun=All'));
    expect(dryRuns).toHaveLength(clusterScoped.length);
    const reviews = server.requests.filter((r) => r.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    expect(reviews.length).toBeGreaterThanOrEqual(7);
    expect(render(report).table).toContain(
      'pre-kubernetes-setup\n--------------------\n√ control plane namespace does not already exist\n√ can create non-namespaced resources\n√ can create ServiceAccounts\n',
    );
  });

  it('fails when the control plane namespace exists', async () => {
    const cluster = await healthyCluster();
    const { report } = await checkAgainst(cluster.objects, { mode: 'pre', ...core({ installObjects: installManifestObjects }) });
    expect(result(report, 'L5D1301')).toMatchObject({ status: 'error', error: 'The "linkerd" namespace already exists', hint: `${HINTS}pre-ns` });
    expect(result(report, 'L5D1302').error).toContain('cannot create Namespace/linkerd: namespaces "linkerd" already exists');
  });

  it('reports access reviews the user is denied, with the reason', async () => {
    const objects = await freshCluster();
    const { report } = await checkAgainst(
      objects,
      { mode: 'pre', ...core({ installObjects: installManifestObjects }) },
      { denials: [{ verb: 'create', resource: 'deployments', group: 'apps', reason: 'no RBAC policy matched' }] },
    );
    const r = result(report, 'L5D1305');
    expect(r).toMatchObject({ status: 'error', error: 'not authorized to access deployments.apps: no RBAC policy matched', hint: `${HINTS}pre-k8s` });
    const out = render(report);
    expect(out.table).toContain(
      `× can create Deployments\n    not authorized to access deployments.apps: no RBAC policy matched\n    see ${HINTS}pre-k8s for hints\n`,
    );
    expect(out.exitCode).toBe(1);
  });

  it('reviews the namespaced resources the install renders beyond the real CLI’s fixed list (Roles, RoleBindings)', async () => {
    const objects = await freshCluster();
    const { report } = await checkAgainst(
      objects,
      { mode: 'pre', ...core({ installObjects: installManifestObjects }) },
      { denials: [{ verb: 'create', resource: 'rolebindings', group: 'rbac.authorization.k8s.io' }] },
    );
    expect(result(report, 'L5D1312')).toMatchObject({
      status: 'error',
      error: 'not authorized to access rolebindings.rbac.authorization.k8s.io',
      hint: `${HINTS}pre-k8s`,
    });
    expect(render(report).table).toContain('× can create the other namespaced resources of the install manifest\n');
  });

  it('dry-runs every cluster-scoped object and reports the ones the user cannot create', async () => {
    const objects = await freshCluster();
    const { report } = await checkAgainst(
      objects,
      { mode: 'pre', ...core({ installObjects: installManifestObjects }) },
      { denials: [{ verb: 'create', resource: 'clusterroles', group: 'rbac.authorization.k8s.io' }] },
    );
    const rendered = await installManifestObjects();
    const roles = rendered.filter((o) => o.kind === 'ClusterRole').map((o) => o.metadata!.name);
    expect(roles.length).toBeGreaterThan(0);
    expect(result(report, 'L5D1302').error).toBe(
      roles
        .map(
          (n) =>
            `cannot create ClusterRole/${n}: clusterroles.rbac.authorization.k8s.io is forbidden: User "kubernetes-admin" cannot create resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope`,
        )
        .join('\n    '),
    );
  });

  it('warns about nodes whose clock is off', async () => {
    const objects = edit(await freshCluster(), 'Node', 'test-control-plane', (n) => {
      for (const c of (n.status as { conditions: Array<{ lastHeartbeatTime: string }> }).conditions)
        c.lastHeartbeatTime = new Date(Date.now() - 10 * 60_000).toISOString();
      return n;
    });
    const { report } = await checkAgainst(objects, { mode: 'pre', ...core({ installObjects: installManifestObjects }) });
    expect(result(report, 'L5D1311')).toMatchObject({ status: 'warning', error: 'clock skew detected for node(s): test-control-plane' });
    expect(report.success).toBe(true);
  });

  it('needs the extension-apiserver-authentication request-header CA', async () => {
    const objects = edit(await freshCluster(), 'ConfigMap', 'extension-apiserver-authentication', (cm) => {
      delete (cm.data as Record<string, string>)['requestheader-client-ca-file'];
      return cm;
    });
    const { report } = await checkAgainst(objects, { mode: 'pre', ...core({ installObjects: installManifestObjects }) });
    expect(result(report, 'L5D1310').error).toBe('--requestheader-client-ca-file is not configured');
  });

  it('fails the manifest-based checks clearly when the manifest cannot be rendered', async () => {
    const objects = await freshCluster();
    const { report } = await checkAgainst(objects, {
      mode: 'pre',
      ...core({
        installObjects: async () => {
          throw new Error('identity issuer certificate expired');
        },
      }),
    });
    expect(result(report, 'L5D1302').error).toBe('error rendering install manifest: identity issuer certificate expired');
  });
});

import fs from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRDS_CHART_VERSION, LINKERD_VERSION } from '../../../src/core/version.js';
import { renderCrds } from '../../../templates/crds/index.js';
import { startApiServer, type ApiServer } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { kubectl } from '../../support/kubectl.js';

/*
 * The multicluster renders through the real kubectl's server-side dry run, against the loopback
 * API server holding Linkerd's namespace and CRDs (the policy kinds the gateway uses) and the
 * extension's namespace, created first: a server dry run does not persist the Namespace it would
 * create, so the objects in it would be refused on a fresh cluster, real or not. `kubectl create
 * --dry-run=server` (the loopback server has no PATCH, which `apply` needs for an existing object):
 * the Namespace document goes to a second server where it does not exist yet, the rest to the first.
 */

describe('linkerd multicluster install and allow, through kubectl --dry-run=server (loopback API server)', () => {
  let server: ApiServer;
  let bare: ApiServer;
  beforeAll(async () => {
    const namespaces = ['linkerd', 'linkerd-multicluster'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
    const crds = renderCrds({ namespace: 'linkerd', cliVersion: LINKERD_VERSION, chartVersion: CRDS_CHART_VERSION });
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: [...namespaces, ...crds] });
    bare = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml', objects: [namespaces[0] ?? {}, ...crds] });
  });
  afterAll(async () => {
    await server.stop();
    await bare.stop();
  });

  /** `kubectl create --dry-run=server` of `docs` on `target`: the names it would create; every write carried dryRun=All. */
  const create = async (target: ApiServer, docs: readonly object[]): Promise<string[]> => {
    const file = `${target.dir}/mc.yaml`;
    fs.writeFileSync(file, docs.map((d) => yaml.dump(d)).join('---\n'));
    target.resetRequests();
    const created = await kubectl(target, 'create', '--dry-run=server', '--validate=false', '-f', file, '-o', 'name');
    fs.rmSync(file);
    expect([created.code, created.stderr]).toEqual([0, '']);
    const writes = target.requests.filter((q) => q.method !== 'GET');
    expect(writes).toHaveLength(docs.length);
    expect(writes.filter((q) => !q.query.includes('dryRun=All'))).toEqual([]);
    return created.stdout.trim().split('\n');
  };

  const dryRun = async (args: string[], expected: number) => {
    const r = await runCli(['multicluster', ...args]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const docs = yaml.loadAll(r.stdout).filter((d): d is { kind: string } => d !== null && typeof d === 'object');
    expect(docs).toHaveLength(expected);
    const namespaced = docs.filter((d) => d.kind === 'Namespace');
    expect(namespaced).toHaveLength(1);
    const names = [
      ...(await create(bare, namespaced)),
      ...(await create(
        server,
        docs.filter((d) => d.kind !== 'Namespace'),
      )),
    ];
    expect(names).toHaveLength(expected);
    // nothing was stored
    expect((await kubectl(server, 'get', 'deployments', '-A', '-o', 'name')).stdout).toBe('');
    return names;
  };

  it('the default install: 26 objects accepted', async () => {
    const names = await dryRun(['install', '--ignore-cluster'], 26);
    expect(names).toContain('deployment.apps/linkerd-gateway');
    expect(names).toContain('customresourcedefinition.apiextensions.k8s.io/links.multicluster.linkerd.io');
  });

  it('--ha: 28 objects accepted', async () => {
    expect(await dryRun(['install', '--ignore-cluster', '--ha'], 28)).toContain('poddisruptionbudget.policy/linkerd-gateway');
  });

  it('--gateway=false: the 19 objects left accepted, no gateway among them', async () => {
    const names = await dryRun(['install', '--ignore-cluster', '--gateway=false'], 19);
    expect(names.filter((n) => n.includes('gateway'))).toEqual([]);
  });

  it('allow: the remote-access identity accepted', async () => {
    const names = await dryRun(['allow', '--service-account-name', 'remote-west', '--ignore-cluster'], 5);
    expect(names).toContain('serviceaccount/remote-west');
  });
});

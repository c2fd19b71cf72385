import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { describe, expect, it } from 'vitest';
import { composeInstallValues } from '../../../src/families/multicluster/chart/installValues.js';
import { type RenderedObject, cliContext, renderMulticluster } from '../../../src/families/multicluster/chart/render.js';
import { gatewayService } from '../../../src/families/multicluster/chart/templates/gateway.js';
import { linkGenOptions } from '../../../src/families/multicluster/link/input.js';
import { linkGen } from '../../../src/families/multicluster/link/linkGen.js';
import { renderCrds } from '../../../templates/crds/index.js';
import { kubernetesModelFailures } from '../../support/kubernetes-models.js';

const render = (set: string[] = [], ha = false) =>
  renderMulticluster(composeInstallValues({ version: 'edge-26.9.1', linkerdNamespace: 'linkerd', set, ha }), cliContext());

/** linkerd's own kinds have no kubernetes-models class; the Link is checked against our CRD below. */
const builtIn = (o: RenderedObject) => !o.apiVersion.startsWith('policy.linkerd.io/');

interface Node {
  type?: string;
  properties?: Record<string, Node>;
  items?: Node;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** Where `value` does not fit `schema`: unknown fields (the API server would prune them) and wrong types. */
function misfits(schema: Node, value: unknown, at = ''): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields']) return [];
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
  if (schema.type && schema.type !== type) return [`${at}: ${type}, not ${schema.type}`];
  if (type === 'array') return (value as unknown[]).flatMap((v, i) => (schema.items ? misfits(schema.items, v, `${at}[${i}]`) : []));
  if (type !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const child = schema.properties?.[k];
    return child ? misfits(child, v, `${at}.${k}`) : [`${at}.${k}: not in the schema`];
  });
}

describe('multicluster objects validate', () => {
  const variants: [string, () => RenderedObject[]][] = [
    ['default', () => render()],
    ['--ha with PSP', () => render(['enablePSP=true'], true)],
    [
      'NodePort with health-check node port',
      () =>
        render(['gateway.serviceType=NodePort', 'gateway.nodePort=30143', 'gateway.serviceExternalTrafficPolicy=Local', 'gateway.healthCheckNodePort=30000']),
    ],
    [
      'controllers with resources and tolerations',
      () => render(['controllers[0].link.ref.name=east', 'controllers[0].resources.limits.memory=250Mi', 'controllers[0].tolerations[0].operator=Exists']),
    ],
  ];
  for (const [name, make] of variants) {
    it(`${name}: every Kubernetes object validates against its OpenAPI schema (kubernetes-models)`, () => {
      const objects = make().filter(builtIn);
      expect(objects.length).toBeGreaterThanOrEqual(14);
      expect(kubernetesModelFailures(objects)).toEqual([]);
    });
  }

  it('the Link link-gen prints fits the stored (v1alpha3) version of the Link CRD install renders', () => {
    const objects = render();
    const crd = objects.find((o) => o.kind === 'CustomResourceDefinition') as unknown as CustomResourceDefinition;
    const stored = crd.spec.versions.find((v) => v.storage);
    expect(stored?.name).toBe('v1alpha3');
    const schema = stored?.schema?.openAPIV3Schema as Node;
    const values = composeInstallValues({ version: 'edge-26.9.1', linkerdNamespace: 'linkerd' });
    const service = { ...gatewayService(values, cliContext()), status: { loadBalancer: { ingress: [{ ip: '127.0.0.2' }] } } };
    const reads = {
      linkerdConfigValues: { identityTrustDomain: 'cluster.local', clusterDomain: 'cluster.local' },
      serviceAccount: {},
      tokenSecrets: [
        {
          metadata: { name: 't', annotations: { 'kubernetes.io/service-account.name': 'linkerd-service-mirror-remote-access-default' } },
          data: { token: 'dG9r' },
        },
      ],
      kubeconfig: { currentContext: 'c', context: { cluster: 'c' }, cluster: { server: 'https://127.0.0.1:6443' } },
      gatewayService: service,
    };
    const link = linkGen(reads, linkGenOptions({ clusterName: 'east', cliVersion: 'edge-26.9.1', excludedLabels: ['evil'], selector: 'a in (b),!c' }))[2];
    expect(misfits(schema, { spec: link.spec, status: link.status })).toEqual([]);
    // The check is live: a field the CRD lacks, or a number where it wants a string, is caught.
    expect(misfits(schema, { spec: { ...link.spec, gatewayPort: 4143 } })).toEqual(['.spec.gatewayPort: number, not string']);
    expect(misfits(schema, { spec: { ...link.spec, probeSpec: { perod: '3s' } } })).toEqual(['.spec.probeSpec.perod: not in the schema']);
  });

  it('the policy resources fit the served versions of linkerd’s policy CRDs', () => {
    const crds = renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1' });
    const schemaOf = (apiVersion: string, kind: string): Node | undefined => {
      const [group, version] = apiVersion.split('/');
      const crd = crds.find((c) => c.spec.group === group && c.spec.names.kind === kind);
      return crd?.spec.versions.find((v) => v.name === version && v.served)?.schema?.openAPIV3Schema as Node | undefined;
    };
    const policies = render().filter((o) => !builtIn(o));
    expect(policies.map((o) => o.kind).sort()).toEqual([
      ...Array(5).fill('AuthorizationPolicy'),
      'MeshTLSAuthentication',
      'NetworkAuthentication',
      ...Array(5).fill('Server'),
    ]);
    const failures = policies.flatMap((o) => {
      const schema = schemaOf(o.apiVersion, o.kind);
      return schema ? misfits(schema, { spec: o.spec }).map((m) => `${o.kind}/${o.metadata.name}${m}`) : [`${o.apiVersion} ${o.kind}: no served CRD version`];
    });
    expect(failures).toEqual([]);
  });
});

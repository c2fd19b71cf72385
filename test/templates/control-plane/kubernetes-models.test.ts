import * as admission from 'kubernetes-models/admissionregistration.k8s.io/v1';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as batch from 'kubernetes-models/batch/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as policyV1beta1 from 'kubernetes-models/policy/v1beta1';
import * as rbac from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as core from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { haValues, render, valuesWith } from '../../core/install/support.js';

/** The kubernetes-models class for each apiVersion/kind the install renders. */
const MODELS: Record<string, Record<string, new (data: object) => { validate(): void }>> = {
  v1: core as never,
  'apps/v1': apps as never,
  'batch/v1': batch as never,
  'policy/v1': policy as never,
  'policy/v1beta1': policyV1beta1 as never,
  'rbac.authorization.k8s.io/v1': rbac as never,
  'admissionregistration.k8s.io/v1': admission as never,
  'apiextensions.k8s.io/v1': { CustomResourceDefinition } as never,
};

function validate(o: RenderedObject): void {
  const Model = MODELS[o.apiVersion]?.[o.kind];
  if (!Model) throw new Error(`no model for ${o.apiVersion} ${o.kind}`);
  // Validate what is printed: the JSON form of the object.
  new Model(JSON.parse(JSON.stringify(o))).validate();
}

const label = (o: RenderedObject) => `${o.kind}/${o.metadata.name}`;

const renders: Array<[string, () => Promise<RenderedObject[]>]> = [
  ['install', () => render()],
  ['install --ha', () => render(haValues())],
  ['install --linkerd-cni-enabled', () => render(valuesWith(['cniEnabled=true']))],
  ['install --set enablePSP=true', () => render(valuesWith(['enablePSP=true']))],
  ['install with an external issuer and external CA', () => render(valuesWith(['identity.issuer.scheme=kubernetes.io/tls', 'identity.externalCA=true']))],
  [
    'install with cert-manager injected webhook CAs',
    () =>
      render(
        valuesWith([
          'proxyInjector.externalSecret=true',
          'proxyInjector.injectCaFrom=linkerd/linkerd-proxy-injector',
          'profileValidator.externalSecret=true',
          'profileValidator.injectCaFromSecret=linkerd/linkerd-sp-validator-k8s-tls',
          'policyValidator.externalSecret=true',
          'policyValidator.caBundle=CA',
        ]),
      ),
  ],
  ['install --crds (with Gateway API)', async () => renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: true }) as unknown as RenderedObject[]],
];

describe('every rendered object validates against the Kubernetes OpenAPI schema of its kind (kubernetes-models)', () => {
  for (const [name, make] of renders) {
    it(`${name}: all objects are valid`, async () => {
      const objects = await make();
      expect(objects.length).toBeGreaterThan(9);
      const failures: string[] = [];
      for (const o of objects) {
        try {
          validate(o);
        } catch (e) {
          failures.push(`${label(o)}: ${String(e).slice(0, 500)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('the validator is live: a Deployment without containers, or with a string port, is rejected', async () => {
    const deployment = (await render()).find((o) => o.kind === 'Deployment')!;
    const noContainers = JSON.parse(JSON.stringify(deployment));
    delete noContainers.spec.template.spec.containers;
    expect(() => validate(noContainers)).toThrow();
    const badPort = JSON.parse(JSON.stringify(deployment));
    badPort.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(() => validate(badPort)).toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import type { RenderedObject } from '../../../templates/control-plane/index.js';
import { haValues, render, valuesWith } from '../../core/install/support.js';
import { validateKubernetesModel } from '../../support/kubernetes-models.js';

const validate = validateKubernetesModel;

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
  [
    'install --crds (with Gateway API)',
    async () =>
      renderCrds({ namespace: 'linkerd', cliVersion: 'edge-26.9.1', chartVersion: '2026.9.1', installGatewayAPI: true }) as unknown as RenderedObject[],
  ],
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

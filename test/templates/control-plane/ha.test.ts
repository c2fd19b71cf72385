import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import type { ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { describe, expect, it } from 'vitest';
import { composeValues } from '../../../src/core/values/index.js';
import { find, haValues, render, validIdentityValues } from '../../core/install/support.js';

const DEPLOYMENTS = [
  ['linkerd-identity', 'identity'],
  ['linkerd-destination', 'destination'],
  ['linkerd-proxy-injector', 'proxy-injector'],
] as const;

const allContainers = (d: Deployment): Container[] => [...(d.spec!.template.spec!.initContainers ?? []), ...d.spec!.template.spec!.containers];
const proxyOf = (d: Deployment) => allContainers(d).find((c) => c.name === 'linkerd-proxy')!;

describe('install --ha (as in install_ha_output.golden)', () => {
  it('runs three replicas of identity, destination and proxy-injector with maxUnavailable 1', async () => {
    const objects = await render(haValues());
    for (const [name] of DEPLOYMENTS) {
      const d = find<Deployment>(objects, 'Deployment', name);
      expect(d.spec!.replicas).toBe(3);
      expect(d.spec!.strategy).toEqual({ rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } });
    }
  });

  it('sets failurePolicy Fail on the three webhooks (Ignore by default)', async () => {
    const ha = await render(haValues());
    const plain = await render();
    for (const [kind, name] of [
      ['ValidatingWebhookConfiguration', 'linkerd-sp-validator-webhook-config'],
      ['ValidatingWebhookConfiguration', 'linkerd-policy-validator-webhook-config'],
      ['MutatingWebhookConfiguration', 'linkerd-proxy-injector-webhook-config'],
    ]) {
      expect(find<ValidatingWebhookConfiguration>(ha, kind, name).webhooks![0].failurePolicy).toBe('Fail');
      expect(find<ValidatingWebhookConfiguration>(plain, kind, name).webhooks![0].failurePolicy).toBe('Ignore');
    }
  });

  it('adds a policy/v1 PodDisruptionBudget (maxUnavailable 1) per component', async () => {
    const objects = await render(haValues());
    for (const [name, component] of [
      ['linkerd-identity', 'identity'],
      ['linkerd-dst', 'destination'],
      ['linkerd-proxy-injector', 'proxy-injector'],
    ]) {
      const pdb = find<PodDisruptionBudget>(objects, 'PodDisruptionBudget', name);
      expect(pdb.apiVersion).toBe('policy/v1');
      expect(pdb.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: { 'linkerd.io/control-plane-component': component } } });
      expect(pdb.metadata!.annotations!['linkerd.io/created-by']).toBe('linkerd/cli edge-26.9.1');
    }
    expect((await render()).filter((o) => o.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  it('spreads replicas: required anti-affinity per node, preferred (weight 100) per zone', async () => {
    const objects = await render(haValues());
    for (const [name, component] of DEPLOYMENTS) {
      const anti = find<Deployment>(objects, 'Deployment', name).spec!.template.spec!.affinity!.podAntiAffinity!;
      const selector = { matchExpressions: [{ key: 'linkerd.io/control-plane-component', operator: 'In', values: [component] }] };
      expect(anti.requiredDuringSchedulingIgnoredDuringExecution).toEqual([{ labelSelector: selector, topologyKey: 'kubernetes.io/hostname' }]);
      expect(anti.preferredDuringSchedulingIgnoredDuringExecution).toEqual([
        { podAffinityTerm: { labelSelector: selector, topologyKey: 'topology.kubernetes.io/zone' }, weight: 100 },
      ]);
    }
    for (const [name] of DEPLOYMENTS) expect(find<Deployment>(await render(), 'Deployment', name).spec!.template.spec!.affinity).toBeUndefined();
  });

  it('gives the controllers cpu 100m / memory 50Mi requests and a 250Mi limit (identity: 10Mi)', async () => {
    const objects = await render(haValues());
    const controller = (d: string, c: string) => find<Deployment>(objects, 'Deployment', d).spec!.template.spec!.containers.find((x) => x.name === c)!;
    expect(controller('linkerd-identity', 'identity').resources).toEqual({ limits: { memory: '250Mi' }, requests: { cpu: '100m', memory: '10Mi' } });
    for (const [d, c] of [
      ['linkerd-destination', 'destination'],
      ['linkerd-destination', 'policy'],
      ['linkerd-proxy-injector', 'proxy-injector'],
    ]) {
      expect(controller(d, c).resources).toEqual({ limits: { memory: '250Mi' }, requests: { cpu: '100m', memory: '50Mi' } });
    }
  });

  it('gives every control-plane proxy cpu 100m / memory 20Mi requests and a 250Mi limit', async () => {
    const objects = await render(haValues());
    for (const [name] of DEPLOYMENTS) {
      expect(proxyOf(find<Deployment>(objects, 'Deployment', name)).resources).toEqual({
        limits: { memory: '250Mi' },
        requests: { cpu: '100m', memory: '20Mi' },
      });
    }
  });

  it('records highAvailability, enablePodAntiAffinity and enablePodDisruptionBudget in linkerd-config', async () => {
    const cm = find<{ data: { values: string } }>(await render(haValues()), 'ConfigMap', 'linkerd-config');
    for (const key of ['highAvailability', 'enablePodAntiAffinity', 'enablePodDisruptionBudget']) expect(cm.data.values).toContain(`${key}: true`);
  });

  it('lets --controller-replicas override the HA replica count (flags after --ha win)', async () => {
    const values = composeValues({
      base: validIdentityValues(),
      flags: [
        { name: 'controller-replicas', value: '5' },
        { name: 'ha', value: true },
      ],
    }).values;
    expect(find<Deployment>(await render(values), 'Deployment', 'linkerd-destination').spec!.replicas).toBe(5);
  });
});

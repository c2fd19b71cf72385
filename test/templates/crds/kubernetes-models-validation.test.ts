import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1';
import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import { CTX } from './crd-table.js';

const cases = [...renderCrds({ ...CTX, installGatewayAPI: true }).map((crd) => ({ crd, label: crd.metadata?.name ?? '?' }))];

describe('CRDs against the apiextensions.k8s.io/v1 model (kubernetes-models)', () => {
  it.each(cases)('$label is a valid CustomResourceDefinition', ({ crd }) => {
    // The model validates a JSON copy, the same bytes `-o json` would print.
    const model = new CustomResourceDefinition(JSON.parse(JSON.stringify(crd)));
    expect(() => model.validate()).not.toThrow();
  });

  it('covers both renders: with and without Gateway API', () => {
    const names = new Set(cases.map((c) => c.label));
    for (const crd of renderCrds(CTX)) expect(names.has(crd.metadata?.name ?? '')).toBe(true);
    expect(cases).toHaveLength(14);
  });

  it('rejects a CRD missing its required names (the validator is live)', () => {
    const [first] = renderCrds(CTX);
    const broken = JSON.parse(JSON.stringify(first));
    delete broken.spec.names;
    expect(() => new CustomResourceDefinition(broken).validate()).toThrow();
  });
});

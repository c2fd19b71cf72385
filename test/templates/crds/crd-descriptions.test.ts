import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import { CTX } from './crd-table.js';

// Schemas are walked as plain JSON, the way `kubectl explain` reads them.
type Json = Record<string, any>;

interface Field {
  path: string;
  description: unknown;
}

/** Every property of a schema, with its path as `kubectl explain` names it (items are transparent). */
function fields(node: Json | undefined, path: string): Field[] {
  if (!node) return [];
  const own = Object.entries<Json>(node.properties ?? {}).flatMap(([name, child]) => [
    { path: `${path}.${name}`, description: child.description },
    ...fields(child, `${path}.${name}`),
  ]);
  return [...own, ...fields(node.items, path)];
}

/** A bare top-level `metadata: {type: object}` (as the chart's HTTPRoute has) is explained by ObjectMeta itself. */
const isBareMetadata = (f: Field) => /^[A-Za-z]+\([a-z0-9]+\)\.metadata$/.test(f.path) && f.description === undefined;

const all = renderCrds({ ...CTX, installGatewayAPI: true }).flatMap((crd) =>
  crd.spec.versions.flatMap((v) => fields(v.schema?.openAPIV3Schema as Json, `${crd.spec.names.kind}(${v.name})`)),
);

describe('CRD field descriptions (kubectl explain)', () => {
  it('walks every property of every CRD version, down to the deepest', () => {
    expect(all.length).toBeGreaterThan(1000);
    expect(all.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'HTTPRoute(v1beta1).spec.rules.backendRefs.filters.requestMirror.backendRef.port',
        'GRPCRoute(v1).status.parents.conditions.observedGeneration',
        'ServiceProfile(v1alpha2).spec.routes.responseClasses.condition.status.min',
        'Server(v1beta3).spec.podSelector.matchExpressions.operator',
      ]),
    );
  });

  it('describes every property of every CRD schema', () => {
    expect(all.filter((f) => !isBareMetadata(f) && (typeof f.description !== 'string' || f.description.trim() === '')).map((f) => f.path)).toEqual([]);
  });

  it('keeps descriptions to one concise sentence or two', () => {
    const long = all.filter((f) => typeof f.description === 'string' && (f.description.length > 140 || f.description.includes('\n')));
    expect(long.map((f) => f.path)).toEqual([]);
  });
});

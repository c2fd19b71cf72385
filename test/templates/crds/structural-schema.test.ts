import { describe, expect, it } from 'vitest';
import { renderCrds } from '../../../templates/crds/index.js';
import { structuralSchemaViolations } from '../../support/structural-schema.js';
import { CTX } from './crd-table.js';

const versions = renderCrds({ ...CTX, installGatewayAPI: true }).flatMap((crd) =>
  crd.spec.versions.map((version) => ({
    label: `${crd.metadata?.name}/${version.name}`,
    schema: version.schema?.openAPIV3Schema,
  })),
);

describe('every served version has a structural openAPIV3Schema', () => {
  it.each(versions)('$label', ({ schema }) => {
    expect(schema).toBeDefined();
    expect(structuralSchemaViolations(schema)).toEqual([]);
  });
});

describe('structuralSchemaViolations', () => {
  const root = (spec: unknown) => ({ type: 'object', properties: { spec } });

  it('accepts a typed tree, int-or-string nodes and preserve-unknown-fields nodes', () => {
    const ok = root({
      type: 'object',
      required: ['port'],
      properties: {
        port: { 'x-kubernetes-int-or-string': true },
        weight: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        labels: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        opaque: { 'x-kubernetes-preserve-unknown-fields': true },
        names: { type: 'array', items: { type: 'string' } },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
      },
      oneOf: [{ required: ['port'] }, { properties: { names: { minItems: 1 } } }],
    });
    expect(structuralSchemaViolations(ok)).toEqual([]);
  });

  it('rejects a field without a type', () => {
    expect(structuralSchemaViolations(root({ type: 'object', properties: { name: { description: 'x' } } }))).toEqual([
      'openAPIV3Schema.properties[spec].properties[name].type: must not be empty for specified object fields',
    ]);
  });

  it('rejects array items without a type, and arrays without items', () => {
    expect(structuralSchemaViolations(root({ type: 'array', items: {} }))).toEqual([
      'openAPIV3Schema.properties[spec].items.type: must not be empty for specified array items',
    ]);
    expect(structuralSchemaViolations(root({ type: 'array' }))).toEqual(['openAPIV3Schema.properties[spec].items: must be specified']);
  });

  it('rejects a root that is not an object', () => {
    expect(structuralSchemaViolations({ type: 'string' })).toContain('openAPIV3Schema.type: must be object at the root');
    expect(structuralSchemaViolations({})).toContain('openAPIV3Schema.type: must not be empty at the root');
  });

  it('only exempts the preserve-unknown-fields node itself, not its specified children', () => {
    const schema = root({ 'x-kubernetes-preserve-unknown-fields': true, properties: { a: {} } });
    expect(structuralSchemaViolations(schema)).toEqual(['openAPIV3Schema.properties[spec].properties[a].type: must not be empty for specified object fields']);
  });

  it('rejects properties together with additionalProperties, and additionalProperties: false', () => {
    const both = root({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } });
    expect(structuralSchemaViolations(both)).toContain(
      'openAPIV3Schema.properties[spec].additionalProperties: properties and additionalProperties are mutually exclusive',
    );
    expect(structuralSchemaViolations(root({ type: 'object', additionalProperties: false }))).toContain(
      'openAPIV3Schema.properties[spec].additionalProperties: cannot be false',
    );
  });

  it('rejects type, description, default, nullable and x-kubernetes-* inside junctors', () => {
    const schema = root({
      type: 'object',
      properties: { a: { type: 'string' } },
      anyOf: [{ type: 'object' }, { description: 'd', default: {}, nullable: true }, { 'x-kubernetes-preserve-unknown-fields': true }],
    });
    expect(structuralSchemaViolations(schema)).toEqual([
      'openAPIV3Schema.properties[spec].anyOf[0].type: must be undefined to be structural',
      'openAPIV3Schema.properties[spec].anyOf[1].description: must be undefined to be structural',
      'openAPIV3Schema.properties[spec].anyOf[1].default: must be undefined to be structural',
      'openAPIV3Schema.properties[spec].anyOf[1].nullable: must be undefined to be structural',
      'openAPIV3Schema.properties[spec].anyOf[2].x-kubernetes-preserve-unknown-fields: must be undefined to be structural',
    ]);
  });

  it('rejects junctor fields and items that are not also specified outside', () => {
    const schema = root({
      type: 'object',
      properties: { a: { type: 'string' } },
      oneOf: [{ properties: { b: { minLength: 1 } } }, { properties: { a: { items: { minLength: 1 } } } }],
    });
    expect(structuralSchemaViolations(schema)).toEqual([
      'openAPIV3Schema.properties[spec].oneOf[0].properties[b]: must also be specified outside of allOf/anyOf/oneOf/not',
      'openAPIV3Schema.properties[spec].oneOf[1].properties[a].items: must also be specified outside of allOf/anyOf/oneOf/not',
    ]);
  });

  it('allows only name and generateName restrictions on root metadata', () => {
    const named = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } } } };
    expect(structuralSchemaViolations(named)).toEqual([]);
    const labelled = { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } };
    expect(structuralSchemaViolations(labelled)).toEqual([
      'openAPIV3Schema.properties[metadata]: must not specify anything other than name and generateName (found properties)',
    ]);
    const required = { type: 'object', properties: { metadata: { type: 'object', required: ['name'] } } };
    expect(structuralSchemaViolations(required)).toHaveLength(1);
  });

  it('rejects a type on int-or-string nodes, except the anyOf integer/string pattern', () => {
    expect(structuralSchemaViolations(root({ type: 'string', 'x-kubernetes-int-or-string': true }))).toEqual([
      'openAPIV3Schema.properties[spec].type: must be empty if x-kubernetes-int-or-string is true',
    ]);
    const wrongAnyOf = root({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'boolean' }] });
    expect(structuralSchemaViolations(wrongAnyOf)).toHaveLength(2);
  });

  it('rejects $ref, uniqueItems: true and preserve-unknown-fields: false', () => {
    expect(structuralSchemaViolations(root({ $ref: '#/definitions/x' }))).toContain('openAPIV3Schema.properties[spec].$ref: is not supported in a CRD schema');
    expect(structuralSchemaViolations(root({ type: 'array', items: { type: 'string' }, uniqueItems: true }))).toEqual([
      'openAPIV3Schema.properties[spec].uniqueItems: cannot be true (quadratic to check)',
    ]);
    expect(structuralSchemaViolations(root({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }))).toEqual([
      'openAPIV3Schema.properties[spec].x-kubernetes-preserve-unknown-fields: must be true or undefined',
    ]);
  });

  it('rejects map lists whose keys are not scalar properties of object items', () => {
    const schema = root({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { value: { type: 'string' } } },
    });
    expect(structuralSchemaViolations(schema)).toEqual(['openAPIV3Schema.properties[spec].x-kubernetes-list-map-keys: name is not a property of the items']);
  });

  it('rejects defaults that do not validate against their own schema', () => {
    const schema = root({
      type: 'object',
      properties: {
        code: { type: 'integer', enum: [301, 302], default: 303 },
        path: { type: 'object', properties: { value: { type: 'string' } }, default: { value: '/', extra: 1 } },
        name: { type: 'string', default: 7 },
      },
    });
    expect(structuralSchemaViolations(schema)).toEqual([
      'openAPIV3Schema.properties[spec].properties[code].default: must be one of the enum values',
      'openAPIV3Schema.properties[spec].properties[path].default.extra: unknown field, would be pruned',
      'openAPIV3Schema.properties[spec].properties[name].default: must be of type string',
    ]);
  });

  it('rejects patterns RE2 cannot compile', () => {
    expect(structuralSchemaViolations(root({ type: 'string', pattern: '^(?!x)' }))).toEqual([
      'openAPIV3Schema.properties[spec].pattern: look-around is not supported by RE2',
    ]);
  });
});

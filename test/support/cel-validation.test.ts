import { describe, expect, it } from 'vitest';
import { celViolations, escapePropertyName, nodeAt, schemaRules, undeclaredSelfFields, withDefaults } from './cel-validation.js';

const root = (spec: unknown) => ({ type: 'object', properties: { spec } });
const rules = (...list: [rule: string, message: string][]) => list.map(([rule, message]) => ({ rule, message }));

describe('celViolations (the API server’s CEL validation, for tests)', () => {
  it('binds self to each value at the rule’s node, item by item, and names the field', () => {
    const schema = root({
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          items: { type: 'integer', 'x-kubernetes-validations': rules(['self < 1024', 'privileged']) },
          'x-kubernetes-validations': rules(['size(self) <= 2', 'at most two']),
        },
      },
    });
    const found = celViolations(schema, { spec: { ports: [80, 8080, 9090] } });
    expect(found.map((v) => [v.field, v.message])).toEqual([
      ['spec.ports', 'at most two'],
      ['spec.ports[1]', 'privileged'],
      ['spec.ports[2]', 'privileged'],
    ]);
  });

  it('does not run rules of absent fields, and runs them on defaulted ones', () => {
    const schema = root({
      type: 'object',
      properties: {
        absent: { type: 'string', 'x-kubernetes-validations': rules(["self == 'x'", 'absent ran']) },
        mode: { type: 'string', default: 'b', 'x-kubernetes-validations': rules(["self == 'a'", 'default validated']) },
      },
    });
    expect(celViolations(schema, { spec: {} }).map((v) => v.message)).toEqual(['default validated']);
  });

  it('reads keyword and punctuated property names as Kubernetes escapes them, and ints as CEL ints', () => {
    const schema = root({
      type: 'object',
      properties: { namespace: { type: 'string' }, 'x-y': { type: 'integer' } },
      'x-kubernetes-validations': rules(["self.__namespace__ == 'a' && self.x__dash__y == 1", 'escaped']),
    });
    expect(celViolations(schema, { spec: { namespace: 'a', 'x-y': 1 } })).toEqual([]);
    expect(celViolations(schema, { spec: { namespace: 'b', 'x-y': 1 } }).map((v) => v.message)).toEqual(['escaped']);
    expect(['namespace', 'a__b', 'a.b/c', '1x'].map(escapePropertyName)).toEqual(['__namespace__', 'a__underscores__b', 'a__dot__b__slash__c', undefined]);
  });

  it('reports a rule that fails to evaluate as a violation with the error', () => {
    const schema = root({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': rules(["self.a == 'x'", 'needs a']) });
    const [v] = celViolations(schema, { spec: {} });
    expect(v?.message).toBe('needs a');
    expect(v?.error).toMatch(/a/);
  });

  it('runs oldSelf rules only on updates, where the value correlates with an old one', () => {
    const immutable = { type: 'string', 'x-kubernetes-validations': rules(['self == oldSelf', 'immutable']) };
    const schema = root({
      type: 'object',
      properties: {
        name: immutable,
        byKey: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' }, v: immutable } },
        },
        atomic: { type: 'array', items: { type: 'object', properties: { v: immutable } } },
      },
    });
    const before = { spec: { name: 'a', byKey: [{ k: '1', v: 'x' }], atomic: [{ v: 'x' }] } };
    const after = {
      spec: {
        name: 'b',
        byKey: [
          { k: '1', v: 'y' },
          { k: '2', v: 'z' },
        ],
        atomic: [{ v: 'y' }],
      },
    };
    expect(celViolations(schema, after)).toEqual([]);
    expect(celViolations(schema, after, before).map((v) => v.field)).toEqual(['spec.name', 'spec.byKey[0].v']);
  });

  it('lists every rule with its schema path', () => {
    const schema = root({
      type: 'array',
      items: { type: 'object', 'x-kubernetes-validations': rules(['true', 'a'], ['oldSelf == self', 'b']) },
    });
    expect(schemaRules(schema).map((r) => [r.schemaPath, r.index, r.transition])).toEqual([
      ['spec[]', 0, false],
      ['spec[]', 1, true],
    ]);
  });

  it('applies defaults inside defaulted values', () => {
    const schema = {
      type: 'object',
      properties: { p: { type: 'object', default: {}, properties: { t: { type: 'string', default: 'x' } } } },
    };
    expect(withDefaults({}, schema)).toEqual({ p: { t: 'x' } });
  });

  it('finds the node of a schema path, and fields a rule reads that the node does not declare', () => {
    const schema = root({ type: 'array', items: { type: 'object', properties: { namespace: { type: 'string' }, a: { type: 'string' } } } });
    const node = nodeAt(schema, 'spec[]');
    expect(node).toEqual((schema.properties.spec as { items: unknown }).items);
    expect(undeclaredSelfFields(node, "has(self.__namespace__) && self.a.startsWith('x') && self.b == 1 && self.all(x, true)")).toEqual(['b']);
  });
});

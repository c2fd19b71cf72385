import { describe, expect, it } from 'vitest';
import { objectMatcher, parseLabelSelector } from '../../../src/core/kube/selectors.js';

const obj = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'x', labels }, ...extra });

describe('label selectors', () => {
  const m = (sel: string, labels: Record<string, string>) => objectMatcher({ labelSelector: sel })(obj(labels));
  it('parses every operator', () => {
    expect(parseLabelSelector('a=b, c==d,e!=f,g in (h, i),j notin (k),l,!m,n>3')).toEqual([
      { key: 'a', op: 'in', values: ['b'] },
      { key: 'c', op: 'in', values: ['d'] },
      { key: 'e', op: 'notin', values: ['f'] },
      { key: 'g', op: 'in', values: ['h', 'i'] },
      { key: 'j', op: 'notin', values: ['k'] },
      { key: 'l', op: 'exists' },
      { key: 'm', op: 'notexists' },
      { key: 'n', op: 'gt', value: 3 },
    ]);
  });
  it('matches like Kubernetes: != and notin also match an absent label', () => {
    expect(m('a=b', { a: 'b' })).toBe(true);
    expect(m('a=b', {})).toBe(false);
    expect(m('a!=b', {})).toBe(true);
    expect(m('a notin (b)', {})).toBe(true);
    expect(m('a in (b,c)', { a: 'c' })).toBe(true);
    expect(m('linkerd.io/control-plane-ns', { 'linkerd.io/control-plane-ns': 'linkerd' })).toBe(true);
    expect(m('!linkerd.io/cni-resource', { 'linkerd.io/cni-resource': 'true' })).toBe(false);
    expect(m('linkerd.io/control-plane-ns,!linkerd.io/cni-resource', { 'linkerd.io/control-plane-ns': 'x' })).toBe(true);
    expect(m('', {})).toBe(true);
  });
  it('rejects malformed selectors', () => {
    expect(() => parseLabelSelector('a in b')).toThrow(/unable to parse requirement/);
    expect(() => parseLabelSelector('a=b=c')).toThrow(/unable to parse requirement/);
  });
});

describe('field selectors', () => {
  it('compares dotted paths, absent fields read as empty', () => {
    const pod = obj({}, { spec: { nodeName: 'n1', hostNetwork: true }, status: { phase: 'Running' } });
    expect(objectMatcher({ fieldSelector: 'status.phase=Running,spec.nodeName==n1' })(pod)).toBe(true);
    expect(objectMatcher({ fieldSelector: 'status.phase!=Running' })(pod)).toBe(false);
    expect(objectMatcher({ fieldSelector: 'spec.hostNetwork=true' })(pod)).toBe(true);
    expect(objectMatcher({ fieldSelector: 'status.podIP=' })(pod)).toBe(true);
  });
});

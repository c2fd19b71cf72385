import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSetArgs, typedSetValue } from '../../../src/core/values/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/values/${name}`, import.meta.url));
const set = (...args: string[]) => parseSetArgs('set', args);

describe('--set', () => {
  it('sets nested keys from dotted paths', () => {
    expect(set('proxy.resources.cpu.limit=1')).toEqual({ proxy: { resources: { cpu: { limit: 1 } } } });
  });

  it('takes several comma-separated pairs in one argument and merges sibling keys', () => {
    expect(set('a.b=1,a.c=2,d=x')).toEqual({ a: { b: 1, c: 2 }, d: 'x' });
  });

  it('applies repeated arguments in order, later winning', () => {
    expect(set('a=1', 'a=2')).toEqual({ a: 2 });
  });

  it('builds lists from {x,y}', () => {
    expect(set('opaque={25,587},after=1')).toEqual({ opaque: [25, 587], after: 1 });
  });

  it('makes {} a list holding one empty string, like Helm', () => {
    expect(set('a={}')).toEqual({ a: [''] });
  });

  it('addresses list elements by index, padding with null', () => {
    expect(set('a[2]=x')).toEqual({ a: [null, null, 'x'] });
    expect(set('a[0].name=one,a[1].name=two')).toEqual({ a: [{ name: 'one' }, { name: 'two' }] });
    expect(set('a[0][1]=x')).toEqual({ a: [[null, 'x']] });
  });

  it('updates an element of a list already in the overrides (from -f)', () => {
    const into = { list: ['a', 'b'] };
    expect(parseSetArgs('set', ['list[1]=c'], undefined, into)).toEqual({ list: ['a', 'c'] });
  });

  it('treats backslash-escaped dots in keys and commas in values literally', () => {
    expect(set('nodeSelector.kubernetes\\.io/os=linux')).toEqual({ nodeSelector: { 'kubernetes.io/os': 'linux' } });
    expect(set('proxy.opaquePorts=25\\,587')).toEqual({ proxy: { opaquePorts: '25,587' } });
  });

  it('infers booleans, null and integers, and keeps the rest as strings', () => {
    expect(set('a=true,b=FALSE,c=null,d=0,e=42,f=-7,g=0755,h=1.5,i=1e3,j=abc,k=')).toEqual({
      a: true,
      b: false,
      c: null,
      d: 0,
      e: 42,
      f: -7,
      g: '0755',
      h: '1.5',
      i: '1e3',
      j: 'abc',
      k: '',
    });
  });

  it('keeps integers beyond 2^53 as digits rather than rounding them', () => {
    expect(typedSetValue('12345678901234567890')).toBe('12345678901234567890');
  });

  it('ignores an empty argument', () => {
    expect(set('')).toEqual({});
  });

  it.each([
    ['a', 'failed parsing --set data: key "a" has no value'],
    ['a,b=1', 'failed parsing --set data: key "a" has no value (cannot end with ,)'],
    ['a={1,2', "failed parsing --set data: list must terminate with '}'"],
    ['a[x]=1', 'failed parsing --set data: error parsing index: strconv.Atoi: parsing "x": invalid syntax'],
    ['a[-1]=1', 'failed parsing --set data: negative -1 index not allowed'],
    ['a[70000]=1', 'failed parsing --set data: index of 70000 is greater than maximum supported index of 65536'],
    ['a=1,a.b=2', 'failed parsing --set data: unable to parse key: "a" is not a map'],
  ])('rejects %j', (arg, message) => {
    expect(() => set(arg)).toThrow(message);
  });
});

describe('--set nesting (issue 24 item 9)', () => {
  const indexes = (n: number) => `a${'[0]'.repeat(n)}=x`;
  const nested = (n: number): unknown => (n === 0 ? 'x' : [nested(n - 1)]);

  it('accepts 30 levels of list indexes, the cap dotted names have', () => {
    expect(set(indexes(30))).toEqual({ a: nested(30) });
    expect(set(`${'k.'.repeat(29)}k[0]=x`)).toEqual(JSON.parse(`${'{"k":'.repeat(30)}["x"]${'}'.repeat(30)}`));
  });

  it('refuses a 31st list index with one line naming the flag', () => {
    expect(() => set(indexes(31))).toThrow(/^failed parsing --set data: list index nested level is greater than maximum supported nested level of 30$/);
    expect(() => parseSetArgs('set-string', [`b.${indexes(30)}`])).toThrow(
      'failed parsing --set-string data: list index nested level is greater than maximum supported nested level of 30',
    );
  });

  it('refuses 5,000 list indexes with the same line, not a stack overflow', () => {
    expect(() => set(indexes(5000))).toThrow('failed parsing --set data: list index nested level is greater than maximum supported nested level of 30');
    expect(() => set(`a${'[0].b'.repeat(5000)}=x`)).toThrow(
      'failed parsing --set data: list index nested level is greater than maximum supported nested level of 30',
    );
    expect(() => set(`${'a.'.repeat(5000)}a=x`)).toThrow(
      'failed parsing --set data: value name nested level is greater than maximum supported nested level of 30',
    );
  });

  it('counts dots and indexes together', () => {
    expect(() => set(`${'k.'.repeat(30)}k[0]=x`)).toThrow('nested level is greater than maximum supported nested level of 30');
    // The dot after an index separates, as in Helm; the index is the level.
    expect(() => set(`${'k[0].'.repeat(31)}k=x`)).toThrow('list index nested level is greater than maximum supported nested level of 30');
    expect(set(`${'k[0].'.repeat(30)}k=x`)).toBeTypeOf('object');
  });
});

describe('--set-string', () => {
  it('keeps every value a string', () => {
    expect(parseSetArgs('set-string', ['a=true,b=null,c=42,d={1,2}'])).toEqual({ a: 'true', b: 'null', c: '42', d: ['1', '2'] });
  });

  it('names itself in errors', () => {
    expect(() => parseSetArgs('set-string', ['a'])).toThrow('failed parsing --set-string data: key "a" has no value');
  });
});

describe('--set-file', () => {
  const readFile = (path: string) => readFileSync(path, 'utf8');

  it('sets the contents of the named file, commas and newlines included', () => {
    const path = fixture('note.txt');
    expect(parseSetArgs('set-file', [`identityTrustAnchorsPEM=${path}`], readFile)).toEqual({
      identityTrustAnchorsPEM: 'line one\nline two, with a comma\n',
    });
  });

  it('reports a missing file through the reader', () => {
    expect(() => parseSetArgs('set-file', ['a=/nonexistent/file'], readFile)).toThrow(/ENOENT/);
  });
});

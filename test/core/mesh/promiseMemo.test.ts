import { describe, expect, it } from 'vitest';
import { PromiseMemo } from '../../../src/core/mesh/promiseMemo.js';

/** A start function that counts its calls and settles as told. */
function counted<T>(outcome: () => Promise<T>) {
  const c = { calls: 0, start: () => (c.calls++, outcome()) };
  return c;
}

describe('PromiseMemo', () => {
  it('starts the work once per key and gives every caller the same promise', async () => {
    const memo = new PromiseMemo();
    const a = counted(() => Promise.resolve('a'));
    const first = memo.get('k', a.start);
    const second = memo.get('k', a.start);
    expect(second).toBe(first);
    expect(await Promise.all([first, second, memo.get('k', a.start)])).toEqual(['a', 'a', 'a']);
    expect(a.calls).toBe(1);
    const b = counted(() => Promise.resolve('b'));
    expect(await memo.get('other', b.start)).toBe('b');
    expect(b.calls).toBe(1);
  });

  it('forgets a failure, so the next caller starts again', async () => {
    const memo = new PromiseMemo();
    let fail = true;
    const w = counted(() => (fail ? Promise.reject(new Error('down')) : Promise.resolve('up')));
    const waiting = [memo.get('k', w.start), memo.get('k', w.start)];
    await expect(Promise.all(waiting)).rejects.toThrow('down');
    expect(w.calls).toBe(1); // callers during the failing attempt share it
    fail = false;
    expect(await memo.get('k', w.start)).toBe('up');
    expect(w.calls).toBe(2);
  });

  it('with rememberFailures answers a failure like a success', async () => {
    const memo = new PromiseMemo({ rememberFailures: true });
    const w = counted(() => Promise.reject(new Error('no')));
    await expect(memo.get('k', w.start)).rejects.toThrow('no');
    await expect(memo.get('k', w.start)).rejects.toThrow('no');
    expect(w.calls).toBe(1);
  });

  it('peek looks without starting; forget drops the matching keys or all', async () => {
    const memo = new PromiseMemo();
    const w = counted(() => Promise.resolve(1));
    expect(memo.peek('a|x')).toBeUndefined();
    await Promise.all([memo.get('a|x', w.start), memo.get('a|y', w.start), memo.get('b|x', w.start)]);
    expect(w.calls).toBe(3);
    expect(memo.peek('a|x')).toBeDefined();
    memo.forget((k) => k.startsWith('a|'));
    expect([memo.peek('a|x'), memo.peek('a|y')]).toEqual([undefined, undefined]);
    expect(memo.peek('b|x')).toBeDefined();
    memo.forget();
    expect(memo.peek('b|x')).toBeUndefined();
  });

  it('a replaced promise is not dropped when an older attempt fails late', async () => {
    const memo = new PromiseMemo();
    let rejectOld: (e: Error) => void = () => {};
    const old = memo.get('k', () => new Promise<string>((_, reject) => (rejectOld = reject)));
    memo.forget();
    const fresh = memo.get('k', () => Promise.resolve('fresh'));
    rejectOld(new Error('late'));
    await expect(old).rejects.toThrow('late');
    expect(memo.peek('k')).toBe(fresh);
  });
});

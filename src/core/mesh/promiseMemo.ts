/**
 * Work started once per key, its promise shared by every caller: the cluster snapshot's reads, a
 * check run's shared facts, a view's derived facts. A failure is forgotten (the next caller starts
 * again) unless `rememberFailures`: then it is answered like a success, because it would fail the
 * same way again.
 */
export class PromiseMemo<K = string> {
  private readonly promises = new Map<K, Promise<unknown>>();

  constructor(private readonly options: { rememberFailures?: boolean } = {}) {}

  /** The promise for `key`, calling `start` only when there is none (or the last one failed and is forgotten). */
  get<T>(key: K, start: () => Promise<T>): Promise<T> {
    const known = this.promises.get(key) as Promise<T> | undefined;
    if (known) return known;
    const p = start();
    this.promises.set(key, p);
    if (!this.options.rememberFailures) {
      p.catch(() => {
        if (this.promises.get(key) === p) this.promises.delete(key);
      });
    }
    return p;
  }

  /** The promise for `key` if there is one, without starting anything. */
  peek<T>(key: K): Promise<T> | undefined {
    return this.promises.get(key) as Promise<T> | undefined;
  }

  /** Forgets the promises whose key matches (every one without `which`): their next get() starts again. */
  forget(which?: (key: K) => boolean): void {
    if (which === undefined) this.promises.clear();
    else for (const key of [...this.promises.keys()]) if (which(key)) this.promises.delete(key);
  }
}

/** What a Go-compatible parser gives: the value, or the reason Go (or apimachinery) would print. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export const parsed = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const refused = <T = never>(reason: string): Parsed<T> => ({ ok: false, reason });

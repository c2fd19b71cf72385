import * as z from 'zod';

/*
 * The scalar and Kubernetes-shaped pieces every chart's values schema is built of, so two charts
 * read `--set a=3306` or a toleration the same way.
 */

/**
 * A string scalar. Numbers are accepted and stringified because Helm renders `--set proxy.opaquePorts=3306`
 * (which it types as an int) exactly like the string "3306"; refusing them would break working commands.
 */
export const str = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), z.string());
export const int = z.number().int();
export const uint = z.number().int().min(0);
export const bool = z.boolean();
export const stringMap = z.record(z.string(), str);

/** A pod toleration, as the charts' values take it. */
export const toleration = z.strictObject({
  key: str.optional(),
  operator: str.optional(),
  value: str.optional(),
  effect: str.optional(),
  tolerationSeconds: int.optional(),
});

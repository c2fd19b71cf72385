import * as z from 'zod';
import { UserError } from '../../core/errors.js';
import { KEY_TYPES } from '../../core/identity/createCertificates.js';
import { positiveDurationMs } from '../../core/parse/goDuration.js';

/*
 * The `linkerd identity …` flags as commander hands them over, one schema per subcommand.
 * A failure names the flag: `Error: --key-type: …`.
 */

const output = z.enum(['text', 'json'], { error: () => 'must be text or json' });
/** A Go duration, checked where it is used (positiveDurationMs), in pflag's words. */
const goDuration = z.string();

export const CreateTrustAnchorFlags = z.object({
  certOut: z.string().min(1),
  keyOut: z.string().min(1),
  commonName: z.string().min(1).optional(),
  trustDomain: z.string().min(1),
  validity: goDuration,
  keyType: z.enum(KEY_TYPES as [string, ...string[]], { error: () => `must be one of ${KEY_TYPES.join(', ')}` }),
});

export const CreateIssuerFlags = z.object({
  trustAnchorFile: z.string({ error: 'is required' }).min(1),
  trustAnchorKeyFile: z.string({ error: 'is required' }).min(1),
  certOut: z.string().min(1),
  keyOut: z.string().min(1),
  commonName: z.string().min(1).optional(),
  trustDomain: z.string().min(1),
  validity: goDuration,
});

export const InspectFlags = z.object({
  cluster: z.boolean(),
  trustAnchors: z.string().min(1).optional(),
  output,
});

export const StatusFlags = z.object({ output });

export const AddAnchorFlags = z.object({ trustAnchorFile: z.string({ error: 'is required' }).min(1), force: z.boolean() });

export const IssuerFlags = z.object({
  issuerCertificateFile: z.string().min(1).optional(),
  issuerKeyFile: z.string().min(1).optional(),
  generate: z.boolean(),
  trustAnchorKey: z.string().min(1).optional(),
  validity: goDuration,
  force: z.boolean(),
});

export const RemoveAnchorFlags = z.object({
  trustAnchorFile: z.string().min(1).optional(),
  keep: z.array(z.string()),
  force: z.boolean(),
});

export const PodIdentityFlags = z.object({
  namespace: z.string().min(1).optional(),
  selector: z.string().optional(),
});

const FLAG_NAMES: Record<string, string> = {
  certOut: 'cert-out',
  keyOut: 'key-out',
  commonName: 'common-name',
  trustDomain: 'trust-domain',
  keyType: 'key-type',
  trustAnchorFile: 'trust-anchor-file',
  trustAnchorKeyFile: 'trust-anchor-key-file',
  trustAnchors: 'trust-anchors',
  issuerCertificateFile: 'issuer-certificate-file',
  issuerKeyFile: 'issuer-key-file',
  trustAnchorKey: 'trust-anchor-key',
};

/** Parses flags with a schema; the first problem becomes `--flag: reason`. */
export function parseFlags<S extends z.ZodType>(schema: S, flags: unknown): z.infer<S> {
  const r = schema.safeParse(flags);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const key = String(issue?.path[0] ?? '');
  const flag = FLAG_NAMES[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  throw new UserError(`--${flag}: ${issue?.message ?? 'invalid'}`);
}

/** Milliseconds of the positive Go duration `--validity` holds. */
export function durationMs(value: string): number {
  return positiveDurationMs('validity', value);
}

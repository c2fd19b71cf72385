import { UserError } from '../errors.js';

/**
 * What went wrong talking to Kubernetes, coarse enough for callers to branch on
 * (a check may treat `notfound` as "absent" and everything else as a failure).
 */
export type KubeErrorKind =
  | 'config' // kubeconfig missing, unreadable or incomplete
  | 'unreachable' // connection refused/reset, DNS failure, EOF
  | 'tls' // certificate verification or TLS handshake failure
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'notfound' // 404
  | 'conflict' // 409 (e.g. AlreadyExists on create)
  | 'invalid' // 400 / 422 (BadRequest, Invalid)
  | 'timeout' // the per-request deadline passed, or 504 / reason Timeout
  | 'server'; // any other HTTP error (5xx, 429, …)

export interface KubeErrorDetails {
  /** HTTP status code, when the server answered. */
  status?: number;
  /** `reason` of the Kubernetes Status (NotFound, Forbidden, AlreadyExists, …). */
  reason?: string;
  /** The request's method and URL, when there was a request. */
  method?: string;
  url?: string;
  cause?: unknown;
}

/**
 * A failed Kubernetes call, with a one-line message in the shape client-go prints
 * (`Get "https://…/version": dial tcp …: connect: connection refused`, or the
 * server's Status message such as `pods "web" not found`).
 */
export class KubeError extends UserError {
  readonly kind: KubeErrorKind;
  readonly status?: number;
  readonly reason?: string;
  readonly method?: string;
  readonly url?: string;

  constructor(kind: KubeErrorKind, message: string, details: KubeErrorDetails = {}) {
    super(message, details.cause === undefined ? {} : { cause: details.cause });
    this.name = 'KubeError';
    this.kind = kind;
    this.status = details.status;
    this.reason = details.reason;
    this.method = details.method;
    this.url = details.url;
  }
}

export function isKubeError(e: unknown, kind?: KubeErrorKind): e is KubeError {
  return e instanceof KubeError && (kind === undefined || e.kind === kind);
}

/** client-go's words when no kubeconfig names a cluster (no file, an empty one, no current context). */
const NO_CONFIG_START = 'invalid configuration: no configuration has been provided';
export const NO_CONFIG = `${NO_CONFIG_START}, try setting KUBERNETES_MASTER environment variable`;

/**
 * `true` when there is no Kubernetes configuration at all — not one that fails (a credential
 * plugin that errs, an unreadable certificate), which is a `config` error too.
 */
export function isNoKubeConfig(e: unknown): e is KubeError {
  return isKubeError(e, 'config') && e.message.startsWith(NO_CONFIG_START);
}

/** `true` when `e` is a 404 from the API server: the object (or resource type) does not exist. */
export function isNotFound(e: unknown): e is KubeError {
  return isKubeError(e, 'notfound');
}

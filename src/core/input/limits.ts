/*
 * How much of each input linkerd-ts reads before refusing it. Every limit is checked while the
 * bytes arrive (a file, a pipe, a URL body after gzip/deflate decoding, an API response), so an
 * endless or oversized input costs at most the limit, never all the memory. docs/hardening.md lists them.
 */

const MiB = 1024 * 1024;

export interface InputLimit {
  /** Bytes read at most. */
  readonly bytes: number;
  /** What the limit is for, in messages: `… the 16 MiB limit for values files`. */
  readonly what: string;
}

/** inject/uninject inputs: files, standard input, URLs (under V8's 512 MiB string ceiling). */
export const MANIFEST_LIMIT: InputLimit = { bytes: 256 * MiB, what: 'manifests' };
/** `-f` values files (paths, URLs, stdin) and `--set-file` files. */
export const VALUES_LIMIT: InputLimit = { bytes: 16 * MiB, what: 'values files' };
/** Certificates and keys: the `--identity-*-file` flags and kubeconfig certificate files. */
export const PEM_LIMIT: InputLimit = { bytes: 1 * MiB, what: 'certificate and key files' };
/** Each kubeconfig file. */
export const KUBECONFIG_LIMIT: InputLimit = { bytes: 16 * MiB, what: 'kubeconfig files' };
/** Kubernetes API response bodies, counted together over the requests in flight at once. */
export const API_BODY_LIMIT: InputLimit = { bytes: 256 * MiB, what: 'Kubernetes API responses read at once' };
/** versioncheck.linkerd.io's answer (`check`'s latest-version checks). */
export const VERSIONCHECK_LIMIT: InputLimit = { bytes: 1 * MiB, what: 'version check answers' };
/** docker's config.json, read for registry credentials by `image build --push`. */
export const DOCKER_CONFIG_LIMIT: InputLimit = { bytes: 1 * MiB, what: 'docker config files' };
/** What an exec credential plugin writes to stdout. */
export const EXEC_OUTPUT_LIMIT: InputLimit = { bytes: 1 * MiB, what: 'credential plugin output' };

/** `16 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The one-line refusal: `<input>: larger than the 16 MiB limit for values files`. */
export function overLimitMessage(input: string, limit: InputLimit): string {
  return `${input}: larger than the ${formatBytes(limit.bytes)} limit for ${limit.what}`;
}

/** `linkerd profile --open-api` and `--proto` documents. */
export const SPEC_FILE_LIMIT: InputLimit = { bytes: 16 * MiB, what: 'OpenAPI and protobuf files' };

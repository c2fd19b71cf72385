import { leafPem, parsePrivateKey, toSec1Pem } from '../pki/index.js';
import { readPemFile } from '../files/readPemFile.js';
import { composeChartInputs, controlPlaneChart, type ComposedValues, type FlagContext, type SetFlag, type Values } from '../values/index.js';
import type { CredentialSources } from './identityCredentials.js';

/*
 * What install and upgrade take from the command line besides the cluster: value flags, `-f`
 * files and `--set*`. Both compose them the same way over a different base (chart defaults, or
 * chart defaults + the stored overrides).
 */

/** The value inputs of `install` and `upgrade`, once flags are parsed. */
export interface ValueInputs {
  /** Value flags the user set, in any order (applied in table order). */
  flags: readonly SetFlag[];
  valuesFiles: readonly string[];
  set: readonly string[];
  setString: readonly string[];
  setFile: readonly string[];
}

/**
 * The issuer file flags store only the leaf certificate and an `EC PRIVATE KEY`, like linkerd.
 * Text that does not parse is kept as is, so validation reports it with the file's name.
 */
export const FLAG_CONTEXT: FlagContext = {
  // The identity file flags hold certificates and keys (`--set-file` files are values).
  readFile: (path) => readPemFile(path),
  issuerCertificatePEM: (pem) => {
    try {
      return leafPem(pem);
    } catch {
      return pem;
    }
  },
  issuerKeyPEM: (pem) => {
    try {
      const key = parsePrivateKey(pem, 'issuer key');
      return key.type === 'ec' ? toSec1Pem(key.keyObject) : pem;
    } catch {
      return pem;
    }
  },
};

const FILE_FLAGS: Record<keyof CredentialSources, string> = {
  trustAnchors: 'identity-trust-anchors-file',
  issuerCertificate: 'identity-issuer-certificate-file',
  issuerKey: 'identity-issuer-key-file',
};

/** `--identity-issuer-certificate-file x.pem`, for each identity file flag the user set. */
export function credentialSources(flags: readonly SetFlag[]): CredentialSources {
  const out: CredentialSources = {};
  for (const [part, name] of Object.entries(FILE_FLAGS) as [keyof CredentialSources, string][]) {
    const flag = flags.find((f) => f.name === name);
    if (flag && String(flag.value) !== '') out[part] = `--${name} ${String(flag.value)}`;
  }
  return out;
}

/** True when the user set flag `--<name>` to a non-empty value. */
export function flagSet(flags: readonly SetFlag[], name: string): boolean {
  return flags.some((f) => f.name === name && String(f.value) !== '');
}

/** base → set flags (table order) → `-f` files → `--set` → `--set-string` → `--set-file`. */
export async function composeInputs(inputs: ValueInputs, base: Values, withFlags = true): Promise<ComposedValues<Values>> {
  return composeChartInputs(controlPlaneChart, { ...inputs, flags: withFlags ? inputs.flags : [] }, { base, flagContext: FLAG_CONTEXT });
}

/**
 * A certificate and its private key, both PEM. `certPem` may hold a chain (leaf
 * first); `keyPem` is the key of the first certificate.
 */
export interface Credentials {
  certPem: string;
  keyPem: string;
}

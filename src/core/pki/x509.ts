// tsyringe (inside @peculiar/x509) needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Node 20 also puts WebCrypto on globalThis, but pinning the provider here means
// the library never depends on what a test environment leaves on the global.
(x509.cryptoProvider as unknown as { set(provider: unknown): void }).set(webcrypto);

/** The configured @peculiar/x509 module; import it from here, not from the package. */
export { x509 };

/** Node's WebCrypto, the same provider x509 signs and verifies with. */
export const subtle = webcrypto.subtle;

export type CryptoKey = webcrypto.CryptoKey;
export type CryptoKeyPair = webcrypto.CryptoKeyPair;

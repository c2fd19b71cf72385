import { UserError } from '../errors.js';

/** Refuses windows that would make a certificate that is never valid. */
export function assertValidityWindow(notBefore: Date, notAfter: Date, what: string): void {
  if (Number.isNaN(notBefore.getTime()) || Number.isNaN(notAfter.getTime())) {
    throw new UserError(`invalid validity period for ${what}: dates must be valid`);
  }
  if (notAfter.getTime() <= notBefore.getTime()) {
    throw new UserError(`invalid validity period for ${what}: NotAfter must be later than NotBefore`);
  }
}

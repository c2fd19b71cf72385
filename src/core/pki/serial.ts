import { randomBytes } from 'node:crypto';
import { UserError } from '../errors.js';

/**
 * A fresh serial: 16 random bytes as hex, like Sprig's and step's 128-bit serials.
 * The certificate encoder prepends a zero byte when the top bit is set, so the
 * serial is always positive.
 */
export function randomSerial(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Normalises a caller-supplied hexadecimal serial (optionally `0x`-prefixed or
 * colon-separated) to even-length lowercase hex. Zero is refused: RFC 5280 wants a
 * positive serial, and the encoder would silently replace it with a random one.
 */
export function normalizeSerial(serial: string): string {
  const hex = serial.trim().replace(/^0x/i, '').replace(/:/g, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex)) {
    throw new UserError(`invalid certificate serial '${serial}': expected hexadecimal digits`);
  }
  if (/^0+$/.test(hex)) {
    throw new UserError(`invalid certificate serial '${serial}': must be positive`);
  }
  return hex.length % 2 === 0 ? hex : `0${hex}`;
}

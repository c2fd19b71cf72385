/**
 * Go's `time.RFC3339` for a UTC instant (`2006-01-02T15:04:05Z`). Certificates
 * carry whole seconds, so linkerd's messages never show fractions; neither do we.
 */
export function formatRFC3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Go's `time.Time.String()` for a UTC instant (`2006-01-02 15:04:05.999999999 +0000 UTC`),
 * which linkerd prints in chain-expiry errors. Go trims trailing zero fractions; so do we.
 * (Go would also append the monotonic clock reading `m=+…` for `time.Now()`; that is
 * process-local noise and is not reproduced.)
 */
export function formatGoTime(date: Date): string {
  const iso = date.toISOString(); // 2006-01-02T15:04:05.000Z
  const day = iso.slice(0, 10);
  const clock = iso.slice(11, 19);
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${day} ${clock}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

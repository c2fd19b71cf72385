/** Kubernetes base64 for Secret data and caBundles, of the trimmed PEM (as the charts' `b64enc (trim …)`). */
export function b64(text: string): string {
  return Buffer.from(text.trim(), 'utf8').toString('base64');
}

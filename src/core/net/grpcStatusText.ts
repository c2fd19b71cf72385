/*
 * gRPC status codes as grpc-go prints them: `codes.Code`'s names, and a status error's text
 * (`rpc error: code = NotFound desc = …`), which the real CLI shows as is.
 */

import { CONNECT_ERRNO_TEXT } from './netErrorText.js';

const CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
] as const;

/** codes.Code's String(): the name, or `Code(N)` for a number it does not know. */
export function grpcCodeName(code: number): string {
  return CODE_NAMES[code] ?? `Code(${code})`;
}

/** A status error's Error() in grpc-go. */
export function grpcErrorText(code: number, details: string): string {
  return `rpc error: code = ${grpcCodeName(code)} desc = ${details}`;
}

// grpc-js: `No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: `
const NO_CONNECTION = /^No connection established\. Last error: (?:Error: )?connect (E[A-Z]+) (\S+?)\.?(?: Resolution note: (.*))?$/s;

/**
 * A failed call's status details as grpc-go words them. grpc-js reports a connection it could not
 * make as `No connection established. Last error: …` with a (often empty) resolution note; grpc-go
 * says `connection error: desc = "transport: Error while dialing: dial tcp ADDR: connect: REASON"`.
 * Other details pass through, minus an empty `Resolution note:` tail.
 */
export function grpcGoDetails(details: string): string {
  const m = NO_CONNECTION.exec(details);
  if (m) {
    const errno = m[1] ?? '';
    const addr = m[2] ?? '';
    const reason = CONNECT_ERRNO_TEXT[errno] ?? errno.toLowerCase();
    return `connection error: desc = "transport: Error while dialing: dial tcp ${addr}: connect: ${reason}"`;
  }
  return details.replace(/\.?\s*Resolution note:\s*$/, '').trim();
}

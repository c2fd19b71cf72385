/*
 * gRPC status codes as grpc-go prints them: `codes.Code`'s names, and a status error's text
 * (`rpc error: code = NotFound desc = …`), which the real CLI shows as is.
 */

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

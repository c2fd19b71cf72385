import { UserError } from '../errors.js';

/*
 * Port lists as linkerd's --skip-inbound-ports/--skip-outbound-ports take them: comma-separated
 * ports (`25`) and inclusive ranges (`4567-4568`), each bound 0–65535. Error texts are linkerd's.
 */

export type PortRange = readonly [lower: number, upper: number];

const UINT16 = /^[0-9]+$/;

function parseBound(s: string): number | undefined {
  if (!UINT16.test(s)) return undefined;
  const n = Number(s);
  return n <= 65535 ? n : undefined;
}

/** One port or `lo-hi` range; throws UserError with linkerd's message when invalid. */
export function parsePortRange(portOrRange: string): PortRange {
  const [lowerText = '', upperText, ...extra] = portOrRange.split('-');
  if (extra.length > 0) throw new UserError('ranges expected as <lower>-<upper>');
  if (upperText === undefined) {
    const port = parseBound(portOrRange);
    if (port === undefined) throw new UserError(`${JSON.stringify(portOrRange)} is not a valid port nor port-range`);
    return [port, port];
  }
  const lower = parseBound(lowerText);
  if (lower === undefined) throw new UserError(`${JSON.stringify(lowerText)} is not a valid lower-bound`);
  const upper = parseBound(upperText);
  if (upper === undefined) throw new UserError(`${JSON.stringify(upperText)} is not a valid upper-bound`);
  if (upper < lower) {
    throw new UserError(`${JSON.stringify(portOrRange)}: upper-bound must be greater than or equal to lower-bound`);
  }
  return [lower, upper];
}

/** A comma-separated list of ports and ranges (`"25,4567-4568"`); the empty string is no ports. */
export function parsePortRanges(list: string): PortRange[] {
  if (list === '') return [];
  return list.split(',').map(parsePortRange);
}

import { formatGoDuration } from '../../../core/parse/goDuration.js';
import { HTTP_METHODS, type RequestInit, type ResponseEnd, type ResponseInit, type TapEvent } from './proto.js';
import { addressText } from './render.js';

/*
 * `viz top`'s model (viz/cmd/top.go), apart from the terminal: tap events paired into requests
 * (request init, response init, response end of one stream), requests merged into rows by the
 * displayed key columns, rows sorted by count, and the screen's text lines.
 */

/** Requests still waiting for their end, at most; the oldest are forgotten past it. */
export const MAX_OUTSTANDING = 10_000;

const DEFAULT_ROUTE = '[DEFAULT]';
const HEADER_HEIGHT = 4;
const COLUMN_SPACING = 2;
/** Columns a/d (or the arrow keys) scroll by. */
export const SCROLL_STEP = 5;

/** gRPC codes top counts as failures: Unknown, DeadlineExceeded, Internal, Unavailable, DataLoss. */
const GRPC_FAILURES = new Set([2, 4, 13, 14, 15]);

export interface TopRow {
  source: string;
  destination: string;
  method: string;
  path: string;
  route: string;
  count: number;
  /** Nanoseconds. */
  best: bigint;
  worst: bigint;
  last: bigint;
  successes: number;
  failures: number;
}

interface Column {
  header: string;
  width: number;
  key: boolean;
  display: boolean;
  flexible: boolean;
  rightAlign: boolean;
  value: (r: TopRow) => string;
}

/** Go's formatDuration in top.go: µs under a millisecond, ms under a second, whole seconds above. */
export function topDuration(ns: bigint): string {
  const round = (unit: bigint) => ((ns + unit / 2n) / unit) * unit;
  if (ns < 1_000_000n) return formatGoDuration(round(1_000n));
  if (ns < 1_000_000_000n) return formatGoDuration(round(1_000_000n));
  return formatGoDuration(round(1_000_000_000n));
}

function columns(options: { hideSources: boolean; routes: boolean }): Column[] {
  const col = (header: string, width: number, value: (r: TopRow) => string, o: Partial<Column> = {}): Column => ({
    header,
    width,
    key: false,
    display: true,
    flexible: false,
    rightAlign: false,
    value,
    ...o,
  });
  return [
    col('Source', 23, (r) => r.source, { key: !options.hideSources, display: !options.hideSources, flexible: true }),
    col('Destination', 23, (r) => r.destination, { key: true, flexible: true }),
    col('Method', 10, (r) => r.method, { key: !options.routes, display: !options.routes }),
    col('Path', 37, (r) => r.path, { key: !options.routes, display: !options.routes, flexible: true }),
    col('Route', 47, (r) => r.route, { key: options.routes, display: options.routes, flexible: true }),
    col('Count', 6, (r) => String(r.count), { rightAlign: true }),
    col('Best', 6, (r) => topDuration(r.best), { rightAlign: true }),
    col('Worst', 6, (r) => topDuration(r.worst), { rightAlign: true }),
    col('Last', 6, (r) => topDuration(r.last), { rightAlign: true }),
    col('Success Rate', 12, (r) => `${((100 * Math.fround(r.successes)) / Math.fround(r.successes + r.failures)).toFixed(2)}%`, { rightAlign: true }),
  ];
}

const stripPort = (address: string) => address.split(':')[0] ?? '';

export class TopTable {
  readonly rows: TopRow[] = [];
  /** Rows by their key columns' values. */
  private readonly byKey = new Map<string, TopRow>();
  private readonly columns: Column[];
  private readonly outstanding = new Map<string, { event: TapEvent; reqInit: RequestInit; rspInit?: ResponseInit }>();

  constructor(options: { hideSources: boolean; routes: boolean }) {
    this.columns = columns(options);
  }

  /** Feed one tap event; a response end completes its request, which becomes (part of) a row. */
  add(event: TapEvent): void {
    const h = event.http;
    if (!h) return;
    const id = `${addressText(event.source)}->${addressText(event.destination)}(${h.id.stream})`;
    if (h.kind === 'requestInit') {
      this.outstanding.delete(id);
      this.outstanding.set(id, { event, reqInit: h });
      const oldest = this.outstanding.keys().next();
      if (this.outstanding.size > MAX_OUTSTANDING && !oldest.done) this.outstanding.delete(oldest.value);
    } else if (h.kind === 'responseInit') {
      const req = this.outstanding.get(id);
      if (req) req.rspInit = h;
    } else {
      const req = this.outstanding.get(id);
      if (!req) return;
      this.outstanding.delete(id);
      this.insert(req.event, req.reqInit, req.rspInit, h);
    }
  }

  private insert(event: TapEvent, reqInit: RequestInit, rspInit: ResponseInit | undefined, rspEnd: ResponseEnd): void {
    // ptypes.Duration refuses a missing duration: such a request is logged and dropped.
    if (!rspEnd.sinceRequestInit) return;
    const latency = rspEnd.sinceRequestInit.seconds * 1_000_000_000n + BigInt(rspEnd.sinceRequestInit.nanos);
    let success = (rspInit?.httpStatus ?? 0) < 500;
    if (success && rspEnd.eos) success = 'grpcStatusCode' in rspEnd.eos ? !GRPC_FAILURES.has(rspEnd.eos.grpcStatusCode) : false;
    const method = reqInit.method && 'registered' in reqInit.method ? (HTTP_METHODS[reqInit.method.registered] ?? String(reqInit.method.registered)) : 'GET';
    const row: TopRow = {
      source: event.sourceMeta?.pod || stripPort(addressText(event.source)),
      destination: event.destinationMeta?.pod || stripPort(addressText(event.destination)),
      method,
      path: reqInit.path,
      route: event.routeMeta?.route || DEFAULT_ROUTE,
      count: 1,
      best: latency,
      worst: latency,
      last: latency,
      successes: success ? 1 : 0,
      failures: success ? 0 : 1,
    };
    const key = JSON.stringify(this.columns.filter((c) => c.key).map((c) => c.value(row)));
    const found = this.byKey.get(key);
    if (!found) {
      this.rows.push(row);
      this.byKey.set(key, row);
      return;
    }
    found.count += 1;
    if (latency < found.best) found.best = latency;
    if (latency > found.worst) found.worst = latency;
    found.last = latency;
    found.successes += row.successes;
    found.failures += row.failures;
  }

  /** The table's width at the current column widths. */
  width(): number {
    return this.columns.reduce((w, c) => w + c.width + COLUMN_SPACING, 0) - COLUMN_SPACING;
  }

  /**
   * The screen: the two help lines, a blank line, the header (its index is `headerRow`), then the
   * rows by count, most first (a stable sort, as Go's SliceStable). `scroll` (≤ 0) shifts columns left.
   */
  screen(scroll = 0, status = ''): { lines: string[]; headerRow: number } {
    for (const c of this.columns) {
      if (!c.flexible) continue;
      c.width = Math.max(c.header.length, ...this.rows.map((r) => c.value(r).length));
    }
    this.rows.sort((a, b) => b.count - a.count);
    const shown = this.columns.filter((c) => c.display);
    const line = (cell: (c: Column) => string) => {
      let out = '';
      for (const c of shown) {
        const v = cell(c);
        out += (c.rightAlign ? v.padStart(c.width) : v.padEnd(c.width)) + ' '.repeat(COLUMN_SPACING);
      }
      return out.trimEnd();
    };
    const shift = (s: string) => (scroll < 0 ? s.slice(-scroll) : ' '.repeat(scroll) + s);
    const lines = [
      '(press q to quit)',
      '(press a/LeftArrowKey to scroll left, d/RightArrowKey to scroll right)',
      status,
      shift(line((c) => c.header)),
      ...this.rows.map((r) => shift(line((c) => c.value(r)))),
    ];
    return { lines, headerRow: HEADER_HEIGHT - 1 };
  }
}

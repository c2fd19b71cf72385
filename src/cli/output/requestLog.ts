import { STATUS_CODES } from 'node:http';
import type { RequestRecord } from '../../core/kube/requestLog.js';

/*
 * `--verbose`'s line per API request, in klog's shape as kubectl prints it at -v=6:
 * `I1201 15:47:00.123456   12345 round_trippers.go] GET https://… 200 OK in 5 milliseconds`.
 */

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** klog's header: severity, month and day, wall time to the microsecond, process id, source. */
function klogHeader(now: Date, pid: number): string {
  const micros = String(now.getMilliseconds() * 1000).padStart(6, '0');
  const time = `${two(now.getHours())}:${two(now.getMinutes())}:${two(now.getSeconds())}.${micros}`;
  return `I${two(now.getMonth() + 1)}${two(now.getDate())} ${time} ${String(pid).padStart(7)} round_trippers.go]`;
}

export function requestLogLine(r: RequestRecord, now: Date = new Date(), pid: number = process.pid): string {
  const status = r.status === undefined ? `(${r.error ?? 'no response'})` : `${r.status} ${STATUS_CODES[r.status] ?? ''}`.trimEnd();
  return `${klogHeader(now, pid)} ${r.method} ${r.url} ${status} in ${r.durationMs} milliseconds\n`;
}

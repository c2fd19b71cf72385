import * as z from 'zod';
import { readResponseBounded } from '../../../core/input/boundedRead.js';
import type { InputLimit } from '../../../core/input/limits.js';
import { netErrorText, urlErrorMessage } from '../../../core/net/netErrorText.js';
import { outboundFetch } from '../../../core/net/outboundFetch.js';

/*
 * Prometheus' HTTP API, instant queries only (`/api/v1/query`), as the Go client the real CLI uses
 * speaks it: a form POST (GET when the server answers 405 or 501), no `time` parameter (the
 * server's now), and its error words (`bad_data: …`, `server_error: server error: 503`). Each
 * query has a deadline and a bounded body, which the real CLI's has not.
 */

export const PROMETHEUS_LIMIT: InputLimit = { bytes: 64 * 1024 * 1024, what: 'Prometheus answers' };
export const DEFAULT_PROMETHEUS_TIMEOUT_MS = 30_000;

export interface PromSample {
  metric: Record<string, string>;
  /** The sample's value; `NaN` (histogram_quantile of nothing) and the infinities included. */
  value: number;
}

export interface PrometheusClient {
  /** Where queries go (`http://127.0.0.1:<port>` for a port-forward). */
  readonly url: string;
  /** An instant query whose result must be a vector. */
  query(promql: string): Promise<PromSample[]>;
  close(): void;
}

export interface PrometheusOptions {
  timeoutMs?: number;
  limit?: InputLimit;
  /** Honour HTTP_PROXY/HTTPS_PROXY/NO_PROXY (an external Prometheus; never a port-forward). */
  proxy?: boolean;
  onClose?: () => void;
}

const SampleValue = z.tuple([z.number(), z.string()]);
const ApiResponse = z.object({
  status: z.string(),
  data: z.unknown().optional(),
  errorType: z.string().optional(),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});
const VectorData = z.object({
  resultType: z.string(),
  result: z.unknown(),
});
const Vector = z.array(z.object({ metric: z.record(z.string(), z.string()), value: SampleValue }));

/** Prometheus writes NaN and the infinities as Go's strconv does. */
function sampleValue(text: string): number {
  if (text === 'NaN') return NaN;
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  const n = Number(text);
  if (text.trim() === '' || Number.isNaN(n)) throw new Error(`bad_response: invalid sample value ${JSON.stringify(text.slice(0, 40))}`);
  return n;
}

/** The Go client's error for a status it does not read the body of. */
function statusError(status: number): string {
  if (Math.floor(status / 100) === 4) return `client_error: client error: ${status}`;
  if (Math.floor(status / 100) === 5) return `server_error: server error: ${status}`;
  return `bad_response: bad response code ${status}`;
}

/** The Go client's reading of an answer: 400 and 422 carry an error body, other non-2xx do not. */
export function parseQueryAnswer(status: number, body: string): PromSample[] {
  const apiError = status === 400 || status === 422;
  if (Math.floor(status / 100) !== 2 && !apiError) throw new Error(statusError(status));
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    throw new Error(`bad_response: ${(e as Error).message}`, { cause: e });
  }
  const answer = ApiResponse.safeParse(json);
  if (!answer.success) throw new Error('bad_response: the answer is not a Prometheus API response');
  if (answer.data.status === 'error') throw new Error(`${answer.data.errorType ?? ''}: ${answer.data.error ?? ''}`);
  if (apiError) throw new Error('bad_response: inconsistent body for response code');
  const data = VectorData.safeParse(answer.data.data);
  if (!data.success) throw new Error('bad_response: the answer has no result');
  if (data.data.resultType !== 'vector') throw new Error(`bad_response: expected a vector result, got ${data.data.resultType.slice(0, 40)}`);
  const vector = Vector.safeParse(data.data.result);
  if (!vector.success) throw new Error('bad_response: the vector result is malformed');
  return vector.data.map((s) => ({ metric: s.metric, value: sampleValue(s.value[1]) }));
}

/** A client for the Prometheus at `base` (its path kept: `http://host/prometheus` → `…/prometheus/api/v1/query`). */
export function prometheusAt(base: string, o: PrometheusOptions = {}): PrometheusClient {
  const timeoutMs = o.timeoutMs ?? DEFAULT_PROMETHEUS_TIMEOUT_MS;
  const limit = o.limit ?? PROMETHEUS_LIMIT;
  const endpoint = new URL(base);
  endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/api/v1/query`;
  endpoint.search = '';
  endpoint.hash = '';

  const exchange = async (method: 'POST' | 'GET', promql: string, signal: AbortSignal): Promise<{ status: number; body: string }> => {
    const target = new URL(endpoint);
    if (method === 'GET') target.searchParams.set('query', promql);
    const { init, proxy } = o.proxy ? await outboundFetch(target) : { init: {}, proxy: undefined };
    let res: Response;
    try {
      res = await fetch(target, {
        method,
        signal,
        redirect: 'manual',
        ...(method === 'POST' ? { body: new URLSearchParams({ query: promql }), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } : {}),
        ...init,
      });
    } catch (e) {
      throw new Error(urlErrorMessage(method, target.href, netErrorText(e, { target, proxy, timedOut: signal.aborted ? 'headers' : undefined }).text), {
        cause: e,
      });
    }
    try {
      return { status: res.status, body: new TextDecoder().decode(await readResponseBounded(res, limit, `the answer of ${target.origin}`)) };
    } catch (e) {
      const text = signal.aborted ? netErrorText(e, { target, proxy, timedOut: 'body' }).text : (e as Error).message;
      throw new Error(urlErrorMessage(method, target.href, text), { cause: e });
    }
  };

  return {
    url: endpoint.origin + endpoint.pathname.replace(/\/api\/v1\/query$/, ''),
    async query(promql) {
      const signal = AbortSignal.timeout(timeoutMs);
      let answer = await exchange('POST', promql, signal);
      if (answer.status === 405 || answer.status === 501) answer = await exchange('GET', promql, signal);
      return parseQueryAnswer(answer.status, answer.body);
    },
    close() {
      o.onClose?.();
    },
  };
}

import { redactedUrl, redactUrlsIn } from '../net/redactedUrl.js';

/*
 * Every request the transport sends, as it completes — for `--verbose`, which logs them the way
 * client-go does at debug level. Core only reports; the CLI decides whether and how to print.
 */

export interface RequestRecord {
  method: string;
  url: string;
  /** HTTP status; undefined when no answer came (network error, deadline). */
  status?: number;
  /** One line saying why no answer came. */
  error?: string;
  durationMs: number;
}

let observer: ((r: RequestRecord) => void) | undefined;

/** Sets (or, with undefined, clears) the one observer of completed requests. */
export function observeRequests(fn: ((r: RequestRecord) => void) | undefined): void {
  observer = fn;
}

/** Reports one request; its URL without the password a kubeconfig server may carry. */
export function recordRequest(r: RequestRecord): void {
  observer?.({ ...r, url: redactedUrl(r.url), ...(r.error === undefined ? {} : { error: redactUrlsIn(r.error) }) });
}

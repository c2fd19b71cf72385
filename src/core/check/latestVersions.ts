import { netErrorText, urlErrorMessage } from '../net/netErrorText.js';
import { outboundFetch } from '../net/outboundFetch.js';
import { readResponseBounded } from '../input/boundedRead.js';
import { VERSIONCHECK_LIMIT } from '../input/limits.js';

/**
 * Release channels and what "up to date" means (linkerd's pkg/version): versions are
 * `<channel>-<version>[-<hotpatch>]`, and a version is compared only with the latest one of
 * its own update channel.
 */

export interface ChannelVersion {
  channel: string;
  version: string;
  hotpatch?: number;
  original: string;
}

export function parseChannelVersion(cv: string): ChannelVersion {
  const [channel, version, ...rest] = cv.split('-');
  if (channel === undefined || version === undefined) throw new Error(`unsupported version format: ${cv}`);
  const hotpatch = rest.find((p) => /^-?\d+$/.test(p));
  return { channel, version, hotpatch: hotpatch === undefined ? undefined : Number(hotpatch), original: cv };
}

const updateChannel = (cv: ChannelVersion) => (cv.hotpatch === undefined ? cv.channel : `${cv.channel}Hotpatch`);
const withHotpatch = (cv: ChannelVersion) => (cv.hotpatch === undefined ? cv.version : `${cv.version}-${cv.hotpatch}`);

/** The latest version of each channel. */
export class Channels {
  constructor(readonly latest: ChannelVersion[]) {}

  static of(...versions: string[]): Channels {
    return new Channels(versions.map(parseChannelVersion));
  }

  get empty(): boolean {
    return this.latest.length === 0;
  }

  /** Why `actual` is not the latest of its channel, or undefined when it is. */
  mismatch(actualVersion: string): string | undefined {
    if (actualVersion === '') return 'actual version is empty';
    let actual: ChannelVersion;
    try {
      actual = parseChannelVersion(actualVersion);
    } catch (e) {
      return `failed to parse actual version: ${(e as Error).message}`;
    }
    const latest = this.latest.find((cv) => updateChannel(cv) === updateChannel(actual));
    if (!latest) return `unsupported version channel: ${actualVersion}`;
    if (latest.original === actual.original) return undefined;
    if (latest.version === actual.version && latest.hotpatch === actual.hotpatch) return undefined;
    return `is running version ${withHotpatch(actual)} but the latest ${actual.channel} version is ${withHotpatch(latest)}`;
  }
}

export interface FetchLatestOptions {
  url: string;
  timeoutMs: number;
  cliVersion: string;
  uuid: string;
}

/**
 * Ask versioncheck.linkerd.io for the latest versions, giving up after `timeoutMs` so an
 * air-gapped cluster costs a short wait, not a hang (linkerd/linkerd2#3973, #11349).
 */
export async function fetchLatestVersions(o: FetchLatestOptions): Promise<Channels> {
  const url = new URL(o.url);
  url.searchParams.set('version', o.cliVersion);
  url.searchParams.set('uuid', o.uuid);
  url.searchParams.set('source', 'cli');
  const { init, proxy } = await outboundFetch(url);
  const signal = AbortSignal.timeout(o.timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { Accept: 'application/json' }, ...init });
  } catch (e) {
    throw new Error(urlErrorMessage('GET', url.href, netErrorText(e, { target: url, proxy, timedOut: signal.aborted ? 'headers' : undefined }).text), {
      cause: e,
    });
  }
  if (res.status !== 200) throw new Error(`unexpected versioncheck response from ${url.origin}${url.pathname}: ${res.status} ${res.statusText}`.trimEnd());
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(await readResponseBounded(res, VERSIONCHECK_LIMIT, url.host)));
  } catch (e) {
    throw new Error(`unexpected versioncheck response: ${(e as Error).message}`, { cause: e });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('unexpected versioncheck response: not a JSON object');
  const latest: ChannelVersion[] = [];
  for (const [channel, version] of Object.entries(body as Record<string, unknown>)) {
    if (typeof version !== 'string') throw new Error(`unexpected versioncheck response: ${channel} is not a string`);
    const cv = parseChannelVersion(version);
    if (cv.channel !== channel && updateChannel(cv) !== channel)
      throw new Error(`unexpected versioncheck response: channel in ${version} does not match ${channel}`);
    latest.push(cv);
  }
  return new Channels(latest);
}

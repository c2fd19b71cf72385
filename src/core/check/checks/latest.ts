import type { CheckContext } from '../context.js';
import { linkerdConfigMap } from '../facts.js';
import { Channels, fetchLatestVersions } from '../latestVersions.js';

type Latest = { ok: true; channels: Channels } | { ok: false; reason: string };

/**
 * The latest versions, once per run: `--expected-version` when given, else
 * versioncheck.linkerd.io with a short timeout. A failure is remembered, not retried.
 */
export function lookupLatest(ctx: CheckContext): Promise<Latest> {
  return ctx.shared('latest-versions', async () => {
    const expected = ctx.options.expectedVersion;
    try {
      if (expected) return { ok: true, channels: Channels.of(expected) };
      let uuid = 'unknown';
      try {
        uuid = (await linkerdConfigMap(ctx))?.metadata?.uid || 'unknown';
      } catch {
        // the install id is only a courtesy to versioncheck
      }
      const channels = await fetchLatestVersions({ ...ctx.options.versionCheck, cliVersion: ctx.options.cliVersion, uuid });
      return { ok: true, channels };
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
  });
}

/** The latest versions, or undefined when they could not be determined (checks comparing with them then skip). */
export async function latestVersions(ctx: CheckContext): Promise<Channels | undefined> {
  const l = await lookupLatest(ctx);
  return l.ok ? l.channels : undefined;
}

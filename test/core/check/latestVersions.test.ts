import { afterEach, describe, expect, it } from 'vitest';
import { Channels, fetchLatestVersions } from '../../../src/core/check/latestVersions.js';
import { closedPort, versionServer } from './support/run.js';

describe('release channels', () => {
  it('compares a version with the latest of its own channel', () => {
    const latest = Channels.of('edge-26.9.1', 'stable-2.14.10');
    expect(latest.mismatch('edge-26.9.1')).toBeUndefined();
    expect(latest.mismatch('edge-26.8.5')).toBe('is running version 26.8.5 but the latest edge version is 26.9.1');
    expect(latest.mismatch('stable-2.14.9')).toBe('is running version 2.14.9 but the latest stable version is 2.14.10');
    expect(latest.mismatch('dev-abc123')).toBe('unsupported version channel: dev-abc123');
    expect(latest.mismatch('')).toBe('actual version is empty');
    expect(latest.mismatch('garbage')).toBe('failed to parse actual version: unsupported version format: garbage');
  });

  it('compares hotpatch versions with the hotpatch channel', () => {
    const latest = Channels.of('stable-2.14.10', 'stable-2.14.10-2');
    expect(latest.mismatch('stable-2.14.10-2')).toBeUndefined();
    expect(latest.mismatch('stable-2.14.10-1')).toBe('is running version 2.14.10-1 but the latest stable version is 2.14.10-2');
  });
});

describe('asking versioncheck for the latest versions', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
  });

  it('sends the version, install id and source, and reads the channels', async () => {
    const srv = await versionServer({ edge: 'edge-26.9.2', stable: 'stable-2.14.10' });
    stops.push(() => srv.stop());
    const latest = await fetchLatestVersions({ url: srv.url, timeoutMs: 2_000, cliVersion: 'edge-26.9.1', uuid: 'abc' });
    expect(latest.mismatch('edge-26.9.1')).toBe('is running version 26.9.1 but the latest edge version is 26.9.2');
    expect(srv.requests[0]).toBe('/version.json?version=edge-26.9.1&uuid=abc&source=cli');
  });

  it('fails quickly and clearly when nothing answers', async () => {
    const port = await closedPort();
    await expect(fetchLatestVersions({ url: `http://127.0.0.1:${port}/version.json`, timeoutMs: 2_000, cliVersion: 'edge-26.9.1', uuid: 'x' })).rejects.toThrow(
      `Get "http://127.0.0.1:${port}/version.json?version=edge-26.9.1&uuid=x&source=cli": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
  });

  it('gives up after its timeout when the server hangs', async () => {
    const srv = await versionServer('hang');
    stops.push(() => srv.stop());
    // The server never answers: only the client's deadline can end this, as the message says.
    await expect(fetchLatestVersions({ url: srv.url, timeoutMs: 200, cliVersion: 'edge-26.9.1', uuid: 'x' })).rejects.toThrow(
      /^Get "http:\/\/127\.0\.0\.1:\d+\/version\.json\?version=edge-26\.9\.1&uuid=x&source=cli": context deadline exceeded \(Client\.Timeout exceeded while awaiting headers\)$/,
    );
  });

  it('refuses answers whose channels do not match', async () => {
    const srv = await versionServer({ edge: 'stable-2.14.10' });
    stops.push(() => srv.stop());
    await expect(fetchLatestVersions({ url: srv.url, timeoutMs: 2_000, cliVersion: 'edge-26.9.1', uuid: 'x' })).rejects.toThrow(
      'unexpected versioncheck response: channel in stable-2.14.10 does not match edge',
    );
  });
});

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildImage } from '../../../src/core/image/build.js';
import { isUserError } from '../../../src/core/errors.js';
import { debRepository, writeConfig } from './fixtures.js';
import { scratch } from './helpers.js';
import { startFakeRegistry, type FakeOptions, type FakeRegistry, type Seen } from './fakeRegistry.js';

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

describe('image build --push: who receives credentials', () => {
  const s = scratch('push-credentials');
  let config: string;
  let fake: FakeRegistry | undefined;
  let n = 0;
  beforeAll(async () => {
    await debRepository(join(s.dir, 'repo'));
    config = writeConfig(s.dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [app]']);
  });
  afterEach(async () => {
    await fake?.stop();
    fake = undefined;
  });
  afterAll(() => s.remove());

  async function push(o: FakeOptions, credentials = { username: 'ci', password: 's3cret' }): Promise<{ fake: FakeRegistry; error?: Error }> {
    fake = await startFakeRegistry(o);
    const error = await buildImage({
      config,
      cwd: s.dir,
      output: join(s.dir, `out-${n++}`),
      tag: 'x/image:1',
      archs: ['amd64'],
      packages: [],
      push: { reference: `${fake.address}/x/image:1`, insecure: true, credentials },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    return { fake, error };
  }

  const authorizations = (seen: Seen[], at: Seen['at']) => [...new Set(seen.filter((q) => q.at === at).map((q) => q.authorization ?? 'none'))];

  it('Basic credentials go to the registry that challenged, never to an upload Location on another origin', async () => {
    const { fake, error } = await push({ auth: { basic: 'ci:s3cret' }, uploadsElsewhere: true });
    expect(error).toBeUndefined();
    const elsewhere = fake.seen.filter((q) => q.at === 'other');
    expect(elsewhere.map((q) => q.method)).toEqual(expect.arrayContaining(['PUT']));
    expect(authorizations(fake.seen, 'other')).toEqual(['none']);
    expect(authorizations(fake.seen, 'registry').sort()).toEqual([basic('ci:s3cret'), 'none']);
  });

  it('the password goes only to the token realm the challenge named, the token only to the registry', async () => {
    const { fake, error } = await push({
      auth: { realm: (_r, other) => `http://${other}/token`, basic: 'ci:s3cret', token: 'tok-123' },
      uploadsElsewhere: true,
    });
    expect(error).toBeUndefined();
    const withBasic = fake.seen.filter((q) => q.authorization?.startsWith('Basic '));
    expect(withBasic.length).toBeGreaterThan(0);
    expect(withBasic.every((q) => q.at === 'other' && q.path === '/token')).toBe(true);
    const withToken = fake.seen.filter((q) => q.authorization === 'Bearer tok-123');
    expect(withToken.length).toBeGreaterThan(0);
    expect(withToken.every((q) => q.at === 'registry')).toBe(true);
    expect(fake.seen.filter((q) => q.at === 'other' && q.path !== '/token').every((q) => q.authorization === undefined)).toBe(true);
  });

  it('a token holding CR/LF is refused without being echoed', async () => {
    const { fake, error } = await push({ auth: { realm: (r) => `http://${r}/token`, basic: 'ci:s3cret', token: 'abc\r\nX-Injected: 1' } });
    expect(isUserError(error), String(error)).toBe(true);
    expect(error?.message).toMatch(/^--push: the token from http:\/\/127\.0\.0\.1:\d+ holds characters a header cannot carry/);
    expect(error?.message).not.toMatch(/abc|Injected/);
    expect(fake.seen.some((q) => q.authorization?.startsWith('Bearer'))).toBe(false);
  });

  it('a token realm over plain HTTP off loopback is refused before anything is sent to it', async () => {
    const { error } = await push({ auth: { realm: () => 'http://registry.example/token', basic: 'ci:s3cret', token: 't' } });
    expect(isUserError(error), String(error)).toBe(true);
    expect(error?.message).toMatch(/^--push: 127\.0\.0\.1:\d+ sent a token realm at http:\/\/registry\.example; only https is used/);
  });
});

describe('image build --push: what a registry can send is an error naming it, not a crash', () => {
  const s = scratch('push-answers');
  let config: string;
  let fake: FakeRegistry | undefined;
  let n = 0;
  beforeAll(async () => {
    await debRepository(join(s.dir, 'repo'));
    config = writeConfig(s.dir, 'c.yml', ['contents:', '  repositories: [./repo]', '  packages: [app]']);
  });
  afterEach(async () => {
    await fake?.stop();
    fake = undefined;
  });
  afterAll(() => s.remove());

  async function push(o: FakeOptions): Promise<{ fake: FakeRegistry; error?: Error }> {
    fake = await startFakeRegistry(o);
    const error = await buildImage({
      config,
      cwd: s.dir,
      output: join(s.dir, `out-${n++}`),
      tag: 'x/image:1',
      archs: ['amd64'],
      packages: [],
      push: { reference: `${fake.address}/x/image:1`, insecure: true, credentials: { username: 'ci', password: 's3cret' } },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    return { fake, error };
  }

  it('a bearer realm that is not a URL', async () => {
    const { error } = await push({ auth: { realm: () => 'not a url', basic: 'ci:s3cret', token: 't' } });
    expect(isUserError(error), String(error)).toBe(true);
    expect(error?.message).toMatch(/^--push: 127\.0\.0\.1:\d+'s bearer challenge names a realm that is not a URL$/);
  });

  it('a 307 on a blob PUT is followed with the body sent again; to another origin without credentials', async () => {
    const same = await push({ auth: { basic: 'ci:s3cret' }, redirectPut: (r) => `http://${r}` });
    expect(same.error).toBeUndefined();
    const redirected = same.fake.seen.filter((q) => q.method === 'PUT' && q.path.includes('/blobs/uploads/'));
    expect(redirected.length).toBeGreaterThanOrEqual(4);
    expect(redirected.every((q) => q.authorization === basic('ci:s3cret'))).toBe(true);
    await same.fake.stop();

    const other = await push({ auth: { basic: 'ci:s3cret' }, redirectPut: (_r, o) => `http://${o}` });
    expect(other.error).toBeUndefined();
    const there = other.fake.seen.filter((q) => q.at === 'other');
    expect(there.filter((q) => q.method === 'PUT').length).toBeGreaterThanOrEqual(2);
    expect(there.every((q) => q.authorization === undefined)).toBe(true);
  });

  it('a 301 on a blob PUT is refused: following it would drop the body', async () => {
    const { error } = await push({ auth: { basic: 'ci:s3cret' }, redirectPut: (r) => `http://${r}`, redirectStatus: 301 });
    expect(isUserError(error), String(error)).toBe(true);
    expect(error?.message).toMatch(
      /^--push: 127\.0\.0\.1:\d+ answered PUT \/v2\/x\/image\/blobs\/uploads\/\d+ with 301, which would drop the request's body; refusing$/,
    );
  });
});

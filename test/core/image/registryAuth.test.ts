import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialsFor } from '../../../src/core/image/registryAuth.js';

describe("registry credentials from docker's config.json", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'l5d-docker-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (text: string) => writeFileSync(path.join(dir, 'config.json'), text);

  it('reads the base64 auth of the registry', () => {
    write(JSON.stringify({ auths: { '127.0.0.1:5000': { auth: Buffer.from('ci:s3cret').toString('base64') } } }));
    expect(credentialsFor('127.0.0.1:5000', { dockerConfigDir: dir })).toEqual({ username: 'ci', password: 's3cret' });
  });

  it('means no credentials when there is no config file', () => {
    expect(credentialsFor('127.0.0.1:5000', { dockerConfigDir: path.join(dir, 'absent') })).toBeUndefined();
  });

  it('refuses a config file over its limit, naming it, instead of reading it whole', () => {
    write(`{"auths":{},"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect(() => credentialsFor('127.0.0.1:5000', { dockerConfigDir: dir })).toThrow(
      `${path.join(dir, 'config.json')}: larger than the 1 MiB limit for docker config files`,
    );
  });
});

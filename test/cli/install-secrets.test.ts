import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/* Issue 10 items 6 and 7 through `linkerd install`: where keys may and may not go. */

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l5d-install-secrets-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('install --identity-trust-anchor-key-out (issue 10 item 6)', () => {
  it('writes the anchor key to a new 0600 file', async () => {
    const key = path.join(dir, 'anchor.key');
    const r = await runCli(['install', '--ignore-cluster', '--identity-trust-anchor-key-out', key]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(key, 'utf8')).toMatch(/^-----BEGIN (EC )?PRIVATE KEY-----/);
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
  });

  it('refuses an existing file before rendering anything, and replaces it with --force', async () => {
    const key = path.join(dir, 'existing.key');
    fs.writeFileSync(key, 'OLD', { mode: 0o644 });
    const refused = await runCli(['install', '--ignore-cluster', '--identity-trust-anchor-key-out', key]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`Error: --identity-trust-anchor-key-out ${key}: file exists (refusing to overwrite it; pass --force to replace it)\n`);
    expect(fs.readFileSync(key, 'utf8')).toBe('OLD');
    const forced = await runCli(['install', '--ignore-cluster', '--identity-trust-anchor-key-out', key, '--force']);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(key, 'utf8')).toMatch(/PRIVATE KEY/);
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
  });

  it('refuses -, a missing directory and --crds, in one line with nothing on stdout', async () => {
    const cases: Array<[string[], string]> = [
      [['--identity-trust-anchor-key-out', '-'], '--identity-trust-anchor-key-out: a private key is written only to a file, not to standard output'],
      [
        ['--identity-trust-anchor-key-out', path.join(dir, 'no/such/key')],
        `--identity-trust-anchor-key-out ${path.join(dir, 'no/such/key')}: cannot use directory ${path.join(dir, 'no/such')}: no such file or directory`,
      ],
      [
        ['--crds', '--identity-trust-anchor-key-out', path.join(dir, 'crds.key')],
        '--identity-trust-anchor-key-out cannot be used with --crds: the CRDs have no trust anchor',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['install', '--ignore-cluster', ...args]);
      expect([args, r.code, r.stdout, r.stderr]).toEqual([args, 1, '', `Error: ${message}\n`]);
    }
    expect(fs.existsSync(path.join(dir, 'crds.key'))).toBe(false);
  });
});

describe('install --identity-external-issuer keeps issuer keys out of values (issue 10 item 7)', () => {
  for (const [how, args] of [
    ['--set-file', ['--set-file', 'identity.issuer.tls.keyPEM=fixtures/certs/valid-key.pem']],
    ['-f', ['-f', '-']],
  ] as const) {
    it(`refuses an issuer key given through ${how}, before anything is printed`, async () => {
      const input = `identity:\n  issuer:\n    tls:\n      keyPEM: |\n${fs.readFileSync('fixtures/certs/valid-key.pem', 'utf8').replace(/^/gm, '        ')}`;
      const r = await runCli(['install', '--ignore-cluster', '--identity-external-issuer', ...args], { input });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'Error: identity.issuer.tls.keyPEM must not be set if --identity-external-issuer=true: the issuer is read from Secret linkerd/linkerd-identity-issuer, and values given here would be stored in the linkerd-config-overrides Secret\n',
      );
    });
  }
});

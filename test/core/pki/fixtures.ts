import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const certsDir = new URL('../../../fixtures/certs/', import.meta.url);

/** Text of a file in fixtures/certs. */
export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(name, certsDir)), 'utf8');
}

/** The three files of a fixture set. */
export function fixtureSet(name: string): { crtPem: string; keyPem: string; anchorsPem: string } {
  return {
    crtPem: fixture(`${name}-crt.pem`),
    keyPem: fixture(`${name}-key.pem`),
    anchorsPem: fixture(`${name}-trust-anchors.pem`),
  };
}

/**
 * Runs `openssl verify` at a pinned time (so the result does not depend on the
 * clock) and returns its exit status and output.
 */
export function opensslVerify(opts: { caPem: string; certPem: string; untrustedPem?: string; at: Date; extraArgs?: string[] }): {
  ok: boolean;
  output: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'pki-test-'));
  try {
    const ca = join(dir, 'ca.pem');
    const cert = join(dir, 'cert.pem');
    writeFileSync(ca, opts.caPem);
    writeFileSync(cert, opts.certPem);
    const args = ['verify', '-attime', String(Math.floor(opts.at.getTime() / 1000)), '-CAfile', ca];
    if (opts.untrustedPem !== undefined) {
      const untrusted = join(dir, 'untrusted.pem');
      writeFileSync(untrusted, opts.untrustedPem);
      args.push('-untrusted', untrusted);
    }
    args.push(...(opts.extraArgs ?? []), cert);
    try {
      const output = execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { ok: true, output };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl x509 -text` of a PEM certificate, for assertions on how OpenSSL reads it. */
export function opensslText(certPem: string): string {
  return execFileSync('openssl', ['x509', '-noout', '-text'], { input: certPem, encoding: 'utf8' });
}

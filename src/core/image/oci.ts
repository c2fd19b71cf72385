import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Arch } from './archs.js';
import type { ImageConfig } from './config.js';
import type { LayerBlob } from './layer.js';

/*
 * The OCI documents (image-spec v1.1): image config, manifest, index, and the image layout that
 * holds them. JSON is written with a fixed key order and no whitespace, so digests are stable.
 */

export const MEDIA = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  index: 'application/vnd.oci.image.index.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture: string; os: string; variant?: string };
  annotations?: Record<string, string>;
}

export interface Blob {
  descriptor: Descriptor;
  bytes: Buffer;
}

export function jsonBlob(mediaType: string, doc: unknown): Blob {
  const bytes = Buffer.from(JSON.stringify(doc));
  return { bytes, descriptor: { mediaType, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length } };
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Splits a command line like a POSIX shell would for words and quotes (no expansions). */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charAt(i);
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < s.length) cur += s.charAt(++i);
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < s.length) {
      cur += s.charAt(++i);
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

function sortedRecord(r: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!r || Object.keys(r).length === 0) return undefined;
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function runAsUser(c: ImageConfig): string | undefined {
  const runAs = c.accounts?.['run-as'];
  if (runAs === undefined) return undefined;
  const user = c.accounts?.users?.find((u) => u.username === String(runAs));
  return user ? String(user.uid) : String(runAs);
}

/** The image config document for one arch. */
export function imageConfig(c: ImageConfig, arch: Arch, layers: LayerBlob[], created: string): unknown {
  const env: Record<string, string> = { PATH: DEFAULT_PATH, SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt', ...(c.environment ?? {}) };
  const entrypoint = c.entrypoint?.command
    ? shellWords(c.entrypoint.command)
    : c.entrypoint?.['shell-fragment']
      ? ['/bin/sh', '-c', c.entrypoint['shell-fragment']]
      : undefined;
  const config: Record<string, unknown> = {};
  const user = runAsUser(c);
  if (user) config.User = user;
  config.Env = Object.keys(env)
    .sort()
    .map((k) => `${k}=${env[k] ?? ''}`);
  if (entrypoint) config.Entrypoint = entrypoint;
  if (c.cmd) config.Cmd = shellWords(c.cmd);
  if (c['work-dir']) config.WorkingDir = c['work-dir'];
  const labels = sortedRecord(c.annotations);
  if (labels) config.Labels = labels;
  if (c['stop-signal']) config.StopSignal = c['stop-signal'];
  if (c.volumes?.length) config.Volumes = Object.fromEntries([...c.volumes].sort().map((v) => [v, {}]));
  return {
    architecture: arch.oci.architecture,
    ...(arch.oci.variant ? { variant: arch.oci.variant } : {}),
    os: 'linux',
    created,
    config,
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: [{ created, created_by: 'linkerd image build', comment: 'packages, accounts, paths and files' }],
  };
}

export function imageManifest(config: Descriptor, layers: LayerBlob[], annotations: Record<string, string> | undefined): unknown {
  return {
    schemaVersion: 2,
    mediaType: MEDIA.manifest,
    config,
    layers: layers.map((l) => ({ mediaType: MEDIA.layer, digest: l.digest, size: l.size })),
    ...(annotations ? { annotations } : {}),
  };
}

export function imageIndex(manifests: Descriptor[], annotations?: Record<string, string>): unknown {
  return { schemaVersion: 2, mediaType: MEDIA.index, manifests, ...(annotations ? { annotations } : {}) };
}

export function platformOf(arch: Arch): NonNullable<Descriptor['platform']> {
  return { architecture: arch.oci.architecture, os: 'linux', ...(arch.oci.variant ? { variant: arch.oci.variant } : {}) };
}

/** `registry/repo:tag` → its parts; the tag defaults to latest. */
export function splitReference(ref: string): { name: string; tag: string } {
  const at = ref.lastIndexOf(':');
  if (at > ref.lastIndexOf('/')) return { name: ref.slice(0, at), tag: ref.slice(at + 1) };
  return { name: ref, tag: 'latest' };
}

export async function writeBlob(layoutDir: string, blob: Blob): Promise<void> {
  await writeFile(join(layoutDir, 'blobs', 'sha256', blob.descriptor.digest.slice('sha256:'.length)), blob.bytes);
}

export async function initLayout(layoutDir: string): Promise<string> {
  const blobs = join(layoutDir, 'blobs', 'sha256');
  await mkdir(blobs, { recursive: true });
  await writeFile(join(layoutDir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  return blobs;
}

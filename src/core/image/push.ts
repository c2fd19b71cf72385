import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { Descriptor } from './oci.js';
import { MEDIA } from './oci.js';
import { credentialsFor, type RegistryCredentials } from './registryAuth.js';
import { boundedText, drain, isLoopback, printable, RegistryClient } from './registryClient.js';

/*
 * Pushes an OCI layout over the distribution API (distribution-spec v1.1): blobs are checked with
 * HEAD and uploaded when missing — in one PUT when small, in PATCH chunks when large — then the
 * manifests, then the tag. Who gets credentials is RegistryClient's concern.
 */

const CHUNK = 8 << 20;
const MONOLITHIC_MAX = 8 << 20;

export interface PushTarget {
  reference: string;
  insecure: boolean;
  credentials: RegistryCredentials;
}

interface Ref {
  registry: string;
  repo: string;
  tag: string;
}

export function parsePushReference(ref: string): Ref {
  const slash = ref.indexOf('/');
  const registry = slash > 0 ? ref.slice(0, slash) : '';
  if (!registry || !/[.:]|^localhost$/.test(registry))
    throw new UserError(`--push ${ref}: expected REGISTRY/REPO:TAG (the registry host first, e.g. 127.0.0.1:5000/linkerd/proxy:dev)`);
  const rest = ref.slice(slash + 1);
  const colon = rest.lastIndexOf(':');
  const repo = colon > 0 ? rest.slice(0, colon) : rest;
  const tag = colon > 0 ? rest.slice(colon + 1) : 'latest';
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(repo))
    throw new UserError(`--push ${ref}: "${repo}" is not a valid repository name`);
  if (!/^\w[\w.-]{0,127}$/.test(tag)) throw new UserError(`--push ${ref}: "${tag}" is not a valid tag`);
  return { registry, repo, tag };
}

async function fail(reg: RegistryClient, res: Response, what: string): Promise<never> {
  const body = printable((await boundedText(res)).slice(0, 300));
  throw new UserError(`--push: ${reg.name}: ${what}: ${res.status} ${printable(res.statusText)}${body ? ` ${body}` : ''}`);
}

async function pushBlob(reg: RegistryClient, repo: string, layout: string, digest: string): Promise<void> {
  const file = join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length));
  const head = await reg.request('HEAD', `/v2/${repo}/blobs/${digest}`);
  await drain(head);
  if (head.ok) return;
  const { size } = await stat(file);
  const start = await reg.request('POST', `/v2/${repo}/blobs/uploads/`);
  if (start.status !== 202) await fail(reg, start, `starting the upload of ${digest}`);
  await drain(start);
  const started = start.headers.get('location');
  if (!started) throw new UserError(`--push: ${reg.name} started the upload of ${digest} without a Location`);
  let location = reg.url(started, start.url);
  const withDigest = (loc: URL) => {
    const u = new URL(loc);
    u.searchParams.set('digest', digest);
    return u;
  };
  if (size <= MONOLITHIC_MAX) {
    const put = await reg.request('PUT', withDigest(location), {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      body: await readFile(file),
    });
    if (put.status !== 201) await fail(reg, put, `uploading ${digest}`);
    await drain(put);
    return;
  }
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    for (let offset = 0; offset < size;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, size - offset), offset);
      const patch = await reg.request('PATCH', location, {
        headers: { 'content-type': 'application/octet-stream', 'content-range': `${offset}-${offset + bytesRead - 1}`, 'content-length': String(bytesRead) },
        body: buf.subarray(0, bytesRead),
      });
      if (patch.status !== 202) await fail(reg, patch, `uploading a chunk of ${digest}`);
      await drain(patch);
      const next = patch.headers.get('location');
      if (next) location = reg.url(next, patch.url);
      offset += bytesRead;
    }
  } finally {
    await fh.close();
  }
  const done = await reg.request('PUT', withDigest(location), { headers: { 'content-length': '0' } });
  if (done.status !== 201) await fail(reg, done, `finishing the upload of ${digest}`);
  await drain(done);
}

async function putManifest(reg: RegistryClient, repo: string, reference: string, mediaType: string, body: Buffer): Promise<void> {
  const res = await reg.request('PUT', `/v2/${repo}/manifests/${reference}`, { headers: { 'content-type': mediaType }, body });
  if (res.status !== 201 && res.status !== 200) await fail(reg, res, `putting manifest ${reference}`);
  await drain(res);
}

/** Refuses a malformed --push reference, or --insecure off loopback, before anything is built. */
export function checkPushTarget(target: PushTarget): Ref {
  const ref = parsePushReference(target.reference);
  if (target.insecure && !isLoopback(ref.registry))
    throw new UserError(`--insecure (plain HTTP) is only for a registry on the loopback address, not ${ref.registry}`);
  return ref;
}

/** Pushes what `top` (a manifest or an index) references, then tags it. Returns `REF@digest`. */
export async function pushLayout(layout: string, top: Descriptor, target: PushTarget, progress: (s: string) => void): Promise<string> {
  const ref = checkPushTarget(target);
  const reg = new RegistryClient(ref, target.insecure, credentialsFor(ref.registry, target.credentials));
  const read = (d: string) => readFile(join(layout, 'blobs', 'sha256', d.slice('sha256:'.length)));
  const manifests: Descriptor[] = [];
  const topBytes = await read(top.digest);
  if (top.mediaType === MEDIA.index) {
    const index = JSON.parse(topBytes.toString('utf8')) as { manifests: Descriptor[] };
    manifests.push(...index.manifests);
  } else manifests.push(top);
  for (const m of manifests) {
    const bytes = await read(m.digest);
    const doc = JSON.parse(bytes.toString('utf8')) as { config: Descriptor; layers: Descriptor[] };
    for (const b of [...doc.layers, doc.config]) {
      progress(`pushing ${b.digest.slice(0, 19)}`);
      await pushBlob(reg, ref.repo, layout, b.digest);
    }
    if (top.mediaType === MEDIA.index) await putManifest(reg, ref.repo, m.digest, m.mediaType, bytes);
  }
  await putManifest(reg, ref.repo, ref.tag, top.mediaType, topBytes);
  return `${ref.registry}/${ref.repo}:${ref.tag}@${top.digest}`;
}

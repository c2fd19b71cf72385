import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { formatRFC3339 } from '../pki/formatRFC3339.js';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { hostArch, platformName, requireArch, type Arch } from './archs.js';
import { tarLayout } from './archive.js';
import { addAccounts, addFiles, addPackageDatabases, applyCapabilities, applyPaths, installPackages } from './assemble.js';
import { loadImageConfig, type LoadedConfig } from './config.js';
import { imageEpoch } from './epoch.js';
import { checkOutput, checkSbom, sbomStep } from './outputPaths.js';
import { throwIfInterrupted } from './interrupted.js';
import { loadKeyring } from './keyring.js';
import { writeLayer, type LayerBlob } from './layer.js';
import { MEDIA, imageConfig, imageIndex, imageManifest, initLayout, jsonBlob, platformOf, splitReference, writeBlob, type Descriptor } from './oci.js';
import type { PackageMeta } from './packageMeta.js';
import type { RegistryCredentials } from './registryAuth.js';
import { availablePackages, localRepositories } from './repositories.js';
import { resolveClosure } from './resolve.js';
import { STAGING_LIMITS, StagingBudget, type StagingLimits } from './stagingBudget.js';
import { RootTree } from './tree.js';

export type ImageFormat = 'oci' | 'oci-archive' | 'docker-archive';

export interface BuildOptions {
  config?: string;
  cwd: string;
  output: string;
  format?: ImageFormat;
  tag: string;
  archs: string[];
  packages: string[];
  sbom?: string;
  /** `registry/repo:tag` to push the result to, and how. */
  push?: { reference: string; insecure: boolean; credentials: RegistryCredentials };
  /** Aborted when the user interrupts: the build stops between entries and removes its work. */
  signal?: AbortSignal;
  /** The build-wide budget for what packages unpack (default STAGING_LIMITS). */
  stagingLimits?: StagingLimits;
  /** SOURCE_DATE_EPOCH, when set. */
  sourceDateEpoch?: number;
  progress?: (text: string) => void;
}

export interface BuiltImage {
  arch: Arch;
  platform: string;
  digest: string;
  configDigest: string;
  layer: LayerBlob;
  packages: PackageMeta[];
  files: FileRecord[];
}

/** A file that went into an image, for the SBOM. */
export interface FileRecord {
  path: string;
  sha256: string;
  owner: string;
}

export interface BuildResult {
  output: string;
  format: ImageFormat;
  tag: string;
  /** The digest `docker pull`/`skopeo` would show: the index's with several archs, else the manifest's. */
  digest: string;
  images: BuiltImage[];
  epoch: number;
  sbom?: string;
  /** The arch whose image docker-archive tags (the others are in its OCI index only). */
  dockerArch?: string;
  /** The pushed reference with its digest. */
  pushed?: string;
}

/** apko's `vcs-url: URL@REVISION` becomes the OCI source and revision annotations. */
function vcsAnnotations(vcs: string | undefined): Record<string, string> {
  if (!vcs) return {};
  const at = vcs.lastIndexOf('@');
  if (at <= vcs.indexOf('://') + 3) return { 'org.opencontainers.image.source': vcs };
  return { 'org.opencontainers.image.source': vcs.slice(0, at), 'org.opencontainers.image.revision': vcs.slice(at + 1) };
}

/** Every regular file with its sha256 (hashing the local and generated ones now), for the SBOM. */
async function fileRecords(tree: RootTree): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  for (const p of tree.sortedPaths()) {
    const n = tree.get(p);
    if (n?.type !== 'file' || !n.data) continue;
    let sha256 = n.sha256;
    if (!sha256) {
      const h = createHash('sha256');
      if ('bytes' in n.data) h.update(n.data.bytes);
      else await pipeline(createReadStream(n.data.path), h);
      sha256 = h.digest('hex');
    }
    out.push({ path: `/${p}`, sha256, owner: n.owner });
  }
  return out;
}

function formatFor(output: string, explicit: ImageFormat | undefined): ImageFormat {
  if (explicit) return explicit;
  return output.endsWith('.tar') ? 'docker-archive' : 'oci';
}

function buildArchs(flag: string[], loaded: LoadedConfig): Arch[] {
  const names =
    flag.length > 0
      ? flag
          .flatMap((a) => a.split(','))
          .map((s) => s.trim())
          .filter(Boolean)
      : (loaded.config.archs ?? []);
  const archs = names.length > 0 ? names.map((n) => requireArch(n, flag.length > 0 ? '--arch' : `${loaded.source}: archs`)) : [hostArch()];
  const unique = new Map(archs.map((a) => [a.apk, a]));
  return [...unique.values()].sort((a, b) => (platformName(a) < platformName(b) ? -1 : 1));
}

/**
 * Builds the image: resolves packages per arch, assembles each root file system, writes one layer
 * per arch, the OCI documents, and the requested output — all in a temporary sibling of the
 * output that replaces it only when everything succeeded.
 */
export async function buildImage(o: BuildOptions): Promise<BuildResult> {
  const report = o.progress ?? (() => undefined);
  const progress = (text: string) => {
    throwIfInterrupted(o.signal);
    report(text);
  };
  const loaded = await loadImageConfig(o.config, o.cwd);
  const c = loaded.config;
  const archs = buildArchs(o.archs, loaded);
  const repos = await localRepositories(
    [...(c.contents?.repositories ?? []), ...(c.contents?.build_repositories ?? [])],
    loaded.baseDir,
    o.packages,
    o.cwd,
    loaded.source,
  );
  const format = formatFor(o.output, o.format);
  const out = resolve(o.cwd, o.output);
  const fileSources = (c.files ?? []).map((f) => resolve(loaded.baseDir, f.source));
  const inputs = [
    ...repos.map((r) => ({ path: r.dir, what: `the package repository` })),
    ...fileSources.map((p) => ({ path: p, what: 'the files source' })),
    ...(o.config ? [{ path: resolve(o.cwd, o.config), what: 'the config file' }] : []),
  ];
  await checkOutput(out, format, inputs);
  const sbom = o.sbom === undefined ? undefined : resolve(o.cwd, o.sbom);
  if (sbom) await checkSbom(sbom, out, inputs);
  const { tag } = splitReference(o.tag);
  if (o.push) {
    const { checkPushTarget } = await import('./push.js');
    checkPushTarget(o.push);
  }

  progress('resolving packages');
  const debCache = new Map<string, Promise<PackageMeta>>();
  const closures = new Map<string, PackageMeta[]>();
  const requests = c.contents?.packages ?? [];
  if (requests.length > 0 && repos.length === 0) {
    throw new UserError(`${loaded.source}: contents.packages names packages but there is no repository; pass a local one with --packages DIR`);
  }
  const keyring = await loadKeyring(
    c.contents?.keyring ?? [],
    loaded.baseDir,
    o.packages.map((d) => resolve(o.cwd, d)),
    loaded.source,
  );
  for (const arch of archs) {
    const available = requests.length > 0 ? await availablePackages(repos, arch, debCache, keyring) : [];
    closures.set(arch.apk, resolveClosure(requests, available, arch.apk).packages);
  }
  const epoch = imageEpoch(o.sourceDateEpoch, [...closures.values()].flat());
  const created = formatRFC3339(new Date(epoch * 1000));

  const work = await mkdtemp(join(dirname(out), `.${basename(out)}.build-`));
  // The SBOM's temporary file sits beside it, so its rename never crosses file systems (EXDEV).
  const sbomTmp = sbom ? join(dirname(sbom), `.${basename(sbom)}.${basename(work)}.tmp`) : undefined;
  const cleanup = async () => {
    await rm(work, { recursive: true, force: true });
    if (sbomTmp) await rm(sbomTmp, { force: true });
  };
  try {
    const layout = join(work, 'layout');
    const blobsDir = await initLayout(layout);
    const images: BuiltImage[] = [];
    const manifests: Descriptor[] = [];
    const budget = new StagingBudget(o.stagingLimits ?? STAGING_LIMITS);
    for (const arch of archs) {
      const staging = join(work, `staging-${arch.apk}`);
      await mkdir(staging);
      const tree = new RootTree(staging, epoch, o.sbom !== undefined, budget);
      const installed = await installPackages(tree, closures.get(arch.apk) ?? [], keyring, o.signal, (s) => progress(`${platformName(arch)}: ${s}`));
      await addAccounts(tree, c, epoch);
      applyPaths(tree, c, epoch);
      await addFiles(tree, c, loaded.baseDir, epoch);
      applyCapabilities(tree, c);
      addPackageDatabases(tree, installed, epoch, c.contents?.runtime_repositories);
      progress(`${platformName(arch)}: writing the layer`);
      const layer = await writeLayer(tree, blobsDir, epoch, `.layer-${arch.apk}.tmp`, o.signal);
      const configBlob = jsonBlob(MEDIA.config, imageConfig(c, arch, [layer], created));
      await writeBlob(layout, configBlob);
      const annotations = { 'org.opencontainers.image.created': created, ...vcsAnnotations(c['vcs-url']), ...(c.annotations ?? {}) };
      const manifest = jsonBlob(MEDIA.manifest, imageManifest(configBlob.descriptor, [layer], annotations));
      await writeBlob(layout, manifest);
      manifests.push({ ...manifest.descriptor, platform: platformOf(arch) });
      const files = o.sbom ? await fileRecords(tree) : [];
      images.push({
        arch,
        platform: platformName(arch),
        digest: manifest.descriptor.digest,
        configDigest: configBlob.descriptor.digest,
        layer,
        packages: installed,
        files,
      });
      await rm(staging, { recursive: true, force: true });
      progress(`${platformName(arch)}: ${manifest.descriptor.digest}`);
    }
    const refAnnotations = { 'io.containerd.image.name': o.tag, 'org.opencontainers.image.ref.name': tag };
    let top: Descriptor;
    const single = manifests[0];
    if (manifests.length === 1 && single) top = { mediaType: single.mediaType, digest: single.digest, size: single.size, platform: single.platform };
    else {
      const index = jsonBlob(MEDIA.index, imageIndex(manifests, { 'org.opencontainers.image.created': created }));
      await writeBlob(layout, index);
      top = index.descriptor;
    }
    await writeFile(join(layout, 'index.json'), JSON.stringify(imageIndex([{ ...top, annotations: refAnnotations }])));

    if (sbom && sbomTmp) {
      // Written before the output is replaced: a failing SBOM fails the build with nothing replaced.
      progress('writing the SBOM');
      const { spdxDocument } = await import('./sbom.js');
      const text = `${JSON.stringify(spdxDocument({ tag: o.tag, digest: top.digest, images, created }), null, 2)}\n`;
      await sbomStep(sbom, () => writeFile(sbomTmp, text, { flag: 'wx' }));
    }

    const host = hostArch();
    const dockerImage = images.find((i) => i.arch.apk === host.apk) ?? images[0];
    if (format === 'oci') {
      throwIfInterrupted(o.signal);
      const old = await stat(out).catch(() => undefined);
      if (old) await rm(out, { recursive: true, force: true });
      await rename(layout, out);
    } else {
      progress(`writing ${format}`);
      const extra: Record<string, Buffer> = {};
      if (format === 'docker-archive' && dockerImage) {
        const manifestDoc = [
          {
            Config: `blobs/sha256/${dockerImage.configDigest.slice('sha256:'.length)}`,
            RepoTags: [o.tag],
            Layers: [`blobs/sha256/${dockerImage.layer.digest.slice('sha256:'.length)}`],
          },
        ];
        extra['manifest.json'] = Buffer.from(JSON.stringify(manifestDoc));
      }
      const tmp = join(work, 'image.tar');
      await tarLayout(layout, tmp, extra, epoch);
      throwIfInterrupted(o.signal);
      await rename(tmp, out);
    }
    if (sbom && sbomTmp) await sbomStep(sbom, () => rename(sbomTmp, sbom));
    let pushed: string | undefined;
    if (o.push) {
      const { pushLayout } = await import('./push.js');
      pushed = await pushLayout(format === 'oci' ? out : layout, top, o.push, progress);
    }
    return {
      output: out,
      format,
      tag: o.tag,
      digest: top.digest,
      images,
      epoch,
      sbom,
      dockerArch: format === 'docker-archive' ? dockerImage?.platform : undefined,
      pushed,
    };
  } finally {
    await cleanup();
  }
}

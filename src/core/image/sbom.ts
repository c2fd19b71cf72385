import { createHash } from 'node:crypto';
import type { BuiltImage } from './build.js';

/*
 * An SPDX 2.3 JSON document of what went into the image: one package per image (per arch), the
 * installed packages it CONTAINS, and every regular file with its sha256. Times are the build's
 * epoch, so the document is as reproducible as the image.
 */

interface SbomInput {
  tag: string;
  digest: string;
  images: BuiltImage[];
  created: string;
}

function spdxId(...parts: string[]): string {
  return `SPDXRef-${parts.join('-').replace(/[^A-Za-z0-9.-]/g, '-')}`;
}

function purl(format: 'deb' | 'apk', name: string, version: string, arch: string): string {
  const type = format === 'deb' ? 'pkg:deb/debian' : 'pkg:apk/wolfi';
  return `${type}/${encodeURIComponent(name)}@${encodeURIComponent(version)}?arch=${encodeURIComponent(arch)}`;
}

export function spdxDocument(s: SbomInput): unknown {
  const packages: unknown[] = [];
  const files: unknown[] = [];
  const relationships: unknown[] = [];
  const top = spdxId('Image', s.digest.slice(7, 19));
  packages.push({
    SPDXID: top,
    name: s.tag,
    versionInfo: s.digest,
    downloadLocation: 'NOASSERTION',
    filesAnalyzed: false,
    primaryPackagePurpose: 'CONTAINER',
    checksums: [{ algorithm: 'SHA256', checksumValue: s.digest.slice(7) }],
  });
  relationships.push({ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: top });
  for (const img of s.images) {
    const imageId = s.images.length > 1 ? spdxId('Image', img.platform) : top;
    if (s.images.length > 1) {
      packages.push({
        SPDXID: imageId,
        name: `${s.tag} (${img.platform})`,
        versionInfo: img.digest,
        downloadLocation: 'NOASSERTION',
        filesAnalyzed: false,
        primaryPackagePurpose: 'CONTAINER',
        checksums: [{ algorithm: 'SHA256', checksumValue: img.digest.slice(7) }],
      });
      relationships.push({ spdxElementId: top, relationshipType: 'CONTAINS', relatedSpdxElement: imageId });
    }
    for (const p of img.packages) {
      const id = spdxId('Package', img.platform, p.name, p.version);
      packages.push({
        SPDXID: id,
        name: p.name,
        versionInfo: p.version,
        downloadLocation: 'NOASSERTION',
        filesAnalyzed: false,
        licenseConcluded: 'NOASSERTION',
        licenseDeclared: p.license ?? 'NOASSERTION',
        copyrightText: 'NOASSERTION',
        ...(p.description ? { summary: p.description } : {}),
        ...(p.homepage ? { homepage: p.homepage } : {}),
        ...(p.origin && p.origin !== p.name ? { sourceInfo: `built from ${p.origin}` } : {}),
        externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purl(p.format, p.name, p.version, p.arch) }],
      });
      relationships.push({ spdxElementId: imageId, relationshipType: 'CONTAINS', relatedSpdxElement: id });
    }
    for (const f of img.files) {
      const id = spdxId('File', img.platform, f.path);
      files.push({
        SPDXID: id,
        fileName: f.path,
        checksums: [{ algorithm: 'SHA256', checksumValue: f.sha256 }],
        licenseConcluded: 'NOASSERTION',
        copyrightText: 'NOASSERTION',
        ...(f.owner ? { comment: `from ${f.owner}` } : {}),
      });
      relationships.push({ spdxElementId: imageId, relationshipType: 'CONTAINS', relatedSpdxElement: id });
    }
  }
  const ns = createHash('sha256').update(`${s.tag}@${s.digest}`).digest('hex');
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `sbom-${s.tag}`,
    documentNamespace: `https://linkerd.io/spdx/image/${ns}`,
    creationInfo: { created: s.created, creators: ['Tool: linkerd image build'], licenseListVersion: '3.22' },
    documentDescribes: [top],
    packages,
    files,
    relationships,
  };
}

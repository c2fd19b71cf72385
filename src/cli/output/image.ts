import type { BuildResult } from '../../core/image/build.js';

/** The digest on stdout (for scripts); what was built, where, on stderr. */
export function printImageResult(r: BuildResult, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): void {
  const lines = [`Built ${r.tag} (${r.format}) at ${r.output}`];
  for (const i of r.images) lines.push(`  ${i.platform}: ${i.digest} (${i.packages.length} packages, layer ${i.layer.size} bytes)`);
  if (r.images.length > 1) lines.push(`  index: ${r.digest}`);
  if (r.dockerArch && r.images.length > 1) lines.push(`  docker-archive tags the ${r.dockerArch} image; the OCI index in the same file holds every arch`);
  if (r.sbom) lines.push(`SBOM: ${r.sbom}`);
  if (r.pushed) lines.push(`Pushed ${r.pushed}`);
  io.stderr.write(`${lines.join('\n')}\n`);
  io.stdout.write(`${r.digest}\n`);
}

import { UserError } from '../errors.js';

/** One architecture under the names each world uses for it. */
export interface Arch {
  /** apk's name (x86_64, aarch64, …), used for apk repositories and in messages. */
  apk: string;
  /** Debian's name (amd64, arm64, …). */
  deb: string;
  /** OCI platform fields. */
  oci: { architecture: string; variant?: string };
}

/** apko accepts both its own (Go) names and apk's; both map to one Arch. */
const TABLE: Arch[] = [
  { apk: 'x86_64', deb: 'amd64', oci: { architecture: 'amd64' } },
  { apk: 'aarch64', deb: 'arm64', oci: { architecture: 'arm64', variant: 'v8' } },
  { apk: 'x86', deb: 'i386', oci: { architecture: '386' } },
  { apk: 'armhf', deb: 'armel', oci: { architecture: 'arm', variant: 'v6' } },
  { apk: 'armv7', deb: 'armhf', oci: { architecture: 'arm', variant: 'v7' } },
  { apk: 'ppc64le', deb: 'ppc64el', oci: { architecture: 'ppc64le' } },
  { apk: 'riscv64', deb: 'riscv64', oci: { architecture: 'riscv64' } },
  { apk: 's390x', deb: 's390x', oci: { architecture: 's390x' } },
];

const ALIASES: Record<string, string> = {
  amd64: 'x86_64',
  arm64: 'aarch64',
  '386': 'x86',
  'arm/v6': 'armhf',
  'arm/v7': 'armv7',
};

export const ARCH_NAMES = [...TABLE.map((a) => a.apk), ...Object.keys(ALIASES)];

export function archOf(name: string): Arch | undefined {
  const apk = ALIASES[name] ?? name;
  return TABLE.find((a) => a.apk === apk);
}

/** The Arch for a name, or a UserError naming where the name came from. */
export function requireArch(name: string, where: string): Arch {
  const a = archOf(name);
  if (!a) throw new UserError(`${where}: unknown architecture "${name}" (one of ${ARCH_NAMES.join(', ')})`);
  return a;
}

/** The host's architecture, the default when neither the config nor --arch names one. */
export function hostArch(): Arch {
  const byNode: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64', ia32: 'x86', arm: 'armv7', ppc64: 'ppc64le', riscv64: 'riscv64', s390x: 's390x' };
  return archOf(byNode[process.arch] ?? 'x86_64') ?? { apk: 'x86_64', deb: 'amd64', oci: { architecture: 'amd64' } };
}

/** A short platform suffix for file names and messages: amd64, arm64, arm-v7. */
export function platformName(a: Arch): string {
  return a.oci.variant && a.oci.architecture === 'arm' ? `arm-${a.oci.variant}` : a.oci.architecture;
}

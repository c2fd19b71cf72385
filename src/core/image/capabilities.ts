import { UserError } from '../errors.js';

/** Linux capability numbers (linux/capability.h), by the names setcap uses. */
const CAPS = [
  'chown',
  'dac_override',
  'dac_read_search',
  'fowner',
  'fsetid',
  'kill',
  'setgid',
  'setuid',
  'setpcap',
  'linux_immutable',
  'net_bind_service',
  'net_broadcast',
  'net_admin',
  'net_raw',
  'ipc_lock',
  'ipc_owner',
  'sys_module',
  'sys_rawio',
  'sys_chroot',
  'sys_ptrace',
  'sys_pacct',
  'sys_admin',
  'sys_boot',
  'sys_nice',
  'sys_resource',
  'sys_time',
  'sys_tty_config',
  'mknod',
  'lease',
  'audit_write',
  'audit_control',
  'setfcap',
  'mac_override',
  'mac_admin',
  'syslog',
  'wake_alarm',
  'block_suspend',
  'audit_read',
  'perfmon',
  'bpf',
  'checkpoint_restore',
];

export interface FileCapabilities {
  /** Capability numbers in the permitted set (and inheritable with `i`). */
  caps: number[];
  effective: boolean;
  inheritable: boolean;
  permitted: boolean;
  /** The text as written, for messages and the SBOM. */
  text: string;
}

/**
 * Parses setcap's text form as linkerd's Dockerfile writes it: `cap_net_raw,cap_net_admin+eip`
 * (names with or without `cap_`, any case; flags from e, i, p).
 */
export function parseCapabilities(text: string, where: string): FileCapabilities {
  const m = /^([A-Za-z_,\s]+)([+=])([eip]+)$/.exec(text.trim());
  if (!m?.[1] || !m[3]) throw new UserError(`${where}: "${text}" is not a capability set like cap_net_raw,cap_net_admin+eip`);
  const caps: number[] = [];
  for (const raw of m[1].split(',')) {
    const name = raw.trim().toLowerCase().replace(/^cap_/, '');
    const n = CAPS.indexOf(name);
    if (n < 0) throw new UserError(`${where}: unknown capability "${raw.trim()}"`);
    if (!caps.includes(n)) caps.push(n);
  }
  const flags = m[3];
  return {
    caps: caps.sort((a, b) => a - b),
    effective: flags.includes('e'),
    inheritable: flags.includes('i'),
    permitted: flags.includes('p'),
    text: text.trim(),
  };
}

/**
 * The `security.capability` xattr value (VFS_CAP_REVISION_2, 20 bytes, little-endian):
 * magic|effective-flag, then permitted and inheritable as two 32-bit halves each.
 */
export function capabilityXattr(c: FileCapabilities): Buffer {
  const buf = Buffer.alloc(20);
  buf.writeUInt32LE(0x02000000 | (c.effective ? 1 : 0), 0);
  for (const n of c.caps) {
    const word = n >> 5;
    const bit = 1 << (n & 31);
    if (c.permitted) buf.writeUInt32LE((buf.readUInt32LE(4 + word * 8) | bit) >>> 0, 4 + word * 8);
    if (c.inheritable) buf.writeUInt32LE((buf.readUInt32LE(8 + word * 8) | bit) >>> 0, 8 + word * 8);
  }
  return buf;
}

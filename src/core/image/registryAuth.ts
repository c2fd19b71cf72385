import { join } from 'node:path';
import { readTextFileBounded } from '../input/boundedRead.js';
import { DOCKER_CONFIG_LIMIT } from '../input/limits.js';

export interface RegistryCredentials {
  username?: string;
  password?: string;
  /** A docker config directory (`$DOCKER_CONFIG` or ~/.docker) whose `auths` may hold the registry. */
  dockerConfigDir?: string;
}

interface DockerConfig {
  auths?: Record<string, { auth?: string; username?: string; password?: string }>;
}

/** The user and password for a registry: given ones first, then docker's config.json `auths`. */
export function credentialsFor(registry: string, c: RegistryCredentials): { username: string; password: string } | undefined {
  if (c.username !== undefined && c.password !== undefined) return { username: c.username, password: c.password };
  if (!c.dockerConfigDir) return undefined;
  const text = dockerConfigText(join(c.dockerConfigDir, 'config.json'));
  if (text === undefined) return undefined;
  let doc: DockerConfig;
  try {
    doc = JSON.parse(text) as DockerConfig;
  } catch {
    return undefined;
  }
  const auths = doc.auths ?? {};
  const entry = auths[registry] ?? auths[`https://${registry}`] ?? auths[`http://${registry}`];
  if (!entry) return undefined;
  if (entry.username !== undefined && entry.password !== undefined) return { username: entry.username, password: entry.password };
  if (entry.auth) {
    const plain = Buffer.from(entry.auth, 'base64').toString('utf8');
    const i = plain.indexOf(':');
    if (i > 0) return { username: plain.slice(0, i), password: plain.slice(i + 1) };
  }
  return undefined;
}

/** The docker config file's text, bounded; a missing file means no stored credentials. */
function dockerConfigText(file: string): string | undefined {
  try {
    return readTextFileBounded(file, DOCKER_CONFIG_LIMIT);
  } catch (e) {
    if (e instanceof Error && (e.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
    throw e;
  }
}

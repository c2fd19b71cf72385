import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

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
export async function credentialsFor(registry: string, c: RegistryCredentials): Promise<{ username: string; password: string } | undefined> {
  if (c.username !== undefined && c.password !== undefined) return { username: c.username, password: c.password };
  if (!c.dockerConfigDir) return undefined;
  const text = await readFile(join(c.dockerConfigDir, 'config.json'), 'utf8').catch(() => undefined);
  if (text === undefined || text.length > 1 << 20) return undefined;
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

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Opening a URL in the user's browser with the platform's opener, as github.com/pkg/browser
 * (which the real CLI uses) does: `open` on macOS, rundll32's URL handler on Windows, else the
 * first of xdg-open, x-www-browser and www-browser on PATH (wslview first under WSL). Resolves
 * to false when there is no opener or it fails; never throws.
 */

function openers(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Array<[string, string[]]> {
  if (platform === 'darwin') return [['open', []]];
  if (platform === 'win32') return [['rundll32', ['url.dll,FileProtocolHandler']]];
  const wsl = env.WSL_DISTRO_NAME ? [['wslview', []] as [string, string[]]] : [];
  return [...wsl, ['xdg-open', []], ['x-www-browser', []], ['www-browser', []]];
}

/** `name` as found on `env.PATH`, or undefined. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function openBrowser(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const found = openers(platform, env)
    .map(([name, args]) => [onPath(name, env), args] as const)
    .find(([file]) => file !== undefined);
  if (!found?.[0]) return Promise.resolve(false);
  const [file, args] = found;
  return new Promise((resolve) => {
    const child = spawn(file, [...args, url], { env, stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
    child.unref();
  });
}

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as names from '../../../src/core/mesh/names.js';

/*
 * The rule the kernel exists for: a mesh name (label, annotation, ConfigMap, Secret, container,
 * port, variable) is written once, in src/core/mesh/names.ts, and every other module reads the
 * constant. This test reads every source file and fails on a quoted copy of one of those names.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const KERNEL = 'src/core/mesh/names.ts';

/** Quoted copies that are not the mesh name but another thing spelled the same (or not yet ours to change). */
const ALLOWED: ReadonlyArray<{ file: string; literal: string; why: string }> = [
  { file: 'src/families/analyze/rules/annotations.ts', literal: '`linkerd.io/inject', why: "a Markdown code span in a finding's documentation" },
  { file: 'src/families/analyze/rules/servers.ts', literal: '`linkerd.io/inject', why: "a Markdown code span in a finding's documentation" },
  { file: 'src/core/check/coreFamily.ts', literal: "'linkerd-config'", why: 'the check category, named like the ConfigMap' },
  { file: 'src/core/check/checks/controlPlane.ts', literal: "'linkerd-config'", why: 'the check category' },
  { file: 'src/core/check/facts.ts', literal: "'linkerd-config'", why: "the fact's memo key" },
  { file: 'templates/control-plane/podmonitor.ts', literal: "'linkerd-proxy'", why: 'the PodMonitor object named after the proxies it scrapes' },
  {
    file: 'src/families/viz/chart/templates/prometheus-config.ts',
    literal: "'linkerd-proxy'",
    why: 'the Prometheus scrape job named after the proxies it scrapes',
  },
  { file: 'templates/proxy/tracing.ts', literal: "'linkerd-proxy'", why: "the trace service name's chart default" },
  // linkerd-config's readers (three today, to be made one) keep their messages until then.
  { file: 'src/core/kube/versions.ts', literal: '`linkerd-config', why: "a linkerd-config reader's message" },
  { file: 'src/core/check/checks/versions.ts', literal: '"linkerd-config"', why: "a linkerd-config reader's message" },
  // The values model (defaults, schema) belongs to the values module's owner; its copies move there.
  { file: 'src/core/values/defaults.ts', literal: "'linkerd-proxy'", why: 'chart defaults proxyContainerName and traceServiceName' },
  { file: 'src/core/values/defaults.ts', literal: "'linkerd.io/control-plane-component'", why: "the webhook's chart default namespaceSelector" },
  { file: 'src/core/values/defaults.ts', literal: "'linkerd.io/cni-resource'", why: "the webhook's chart default namespaceSelector" },
  { file: 'src/cli/globals.ts', literal: "'linkerd-cni'", why: "--cni-namespace's default, read at start-up, which loads nothing of core/mesh" },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The code of a file without its comments (line comments, and block-comment lines starting with `*` or `/*`). */
function codeLines(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l))
    .map((l) => l.replace(/\s\/\/\s.*$/, ''));
}

const meshNames = Object.entries(names as Record<string, unknown>).flatMap(([constant, value]) =>
  typeof value === 'string' && /linkerd/i.test(value) ? [{ constant, value }] : [],
);

describe('mesh names (src/core/mesh/names.ts)', () => {
  it('holds the names the families share, each once', () => {
    expect(meshNames.map((n) => n.value)).toEqual(
      expect.arrayContaining(['linkerd.io/control-plane-ns', 'linkerd-proxy', 'linkerd-config', 'linkerd.io/inject']),
    );
    const labelsAndObjects = meshNames.filter((n) => n.constant !== 'PROXY_PORT_NAME'); // the inbound port is named like the container
    expect(new Set(labelsAndObjects.map((n) => n.value)).size).toBe(labelsAndObjects.length);
    expect(names.proxyOwnerLabel('deployment')).toBe('linkerd.io/proxy-deployment');
  });

  it('are never written as literals elsewhere in src/ or templates/', () => {
    const found: string[] = [];
    for (const file of [...sourceFiles('src'), ...sourceFiles('templates')]) {
      if (file === KERNEL) continue;
      const lines = codeLines(fs.readFileSync(path.join(ROOT, file), 'utf8'));
      for (const { value } of meshNames) {
        for (const literal of [`'${value}'`, `"${value}"`, `\`${value}`]) {
          if (ALLOWED.some((a) => a.file === file && a.literal === literal)) continue;
          const at = lines.findIndex((l) => l.includes(literal));
          if (at >= 0) found.push(`${file}: ${literal} (${lines[at]?.trim()})`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

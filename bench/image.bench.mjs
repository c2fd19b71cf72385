#!/usr/bin/env node
// `linkerd image build` of ~50 MB of packages (gzip .debs made with dpkg-deb from 100 MB of files) against the floor of
// the same run: `tar -c` of the same file tree piped into `gzip -6` (the system tools). The build
// also reads and decompresses every package, hashes twice and writes the OCI layout. Targets:
// ≤ 1.3× the floor, and bounded memory — peak RSS with 100 MB of files no more than a quarter
// of the extra data above the peak with 50 MB. Each build runs in a fresh process from dist/ (`npm run
// build` first). BENCH_RUNS sets the runs per case (default 3); BENCH_IMAGE_MB the files' size (100).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './startup.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const TARGET_RATIO = 1.3;

// ---------------------------------------------------------------- child: one build

if (process.argv[2] === '--child') {
  const [config, packages, output] = process.argv.slice(3);
  const { buildImage } = await import(pathToFileURL(path.join(root, 'dist/src/core/image/build.js')).href);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await buildImage({
    config,
    cwd: path.dirname(config),
    output,
    tag: 'bench/image:1',
    archs: ['amd64'],
    packages: [packages],
    sourceDateEpoch: 1_700_000_000,
  });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, bytes: r.images[0].layer.size, rssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

// ---------------------------------------------------------------- parent

/** Bytes of 4 bits of entropy each: gzip halves them, about what it does to binaries and libraries. */
function content(size) {
  const b = randomBytes(size);
  for (let i = 0; i < size; i++) b[i] = 0x61 + (b[i] & 0x0f);
  return b;
}

/** PACKAGES .debs under DIR/debs holding about MB megabytes of files; the same tree under DIR/tree. */
function makePackages(dir, mb) {
  const count = 20;
  const per = Math.floor((mb * 1e6) / count);
  const debs = path.join(dir, 'debs');
  const tree = path.join(dir, 'tree');
  mkdirSync(debs, { recursive: true });
  const names = [];
  for (let p = 0; p < count; p++) {
    const name = `bench-pkg${p}`;
    names.push(name);
    const pkgRoot = path.join(dir, 'roots', name);
    const files = path.join(pkgRoot, 'usr', 'lib', name);
    mkdirSync(files, { recursive: true });
    mkdirSync(path.join(pkgRoot, 'DEBIAN'));
    let left = per;
    for (let f = 0; left > 0; f++) {
      const size = Math.min(left, 64_000 + ((f * 48271) % 900_000));
      writeFileSync(path.join(files, `file${f}.so`), content(size));
      left -= size;
    }
    writeFileSync(
      path.join(pkgRoot, 'DEBIAN', 'control'),
      `Package: ${name}\nVersion: 1.0\nArchitecture: amd64\nMaintainer: bench <b@example.com>\nDescription: bench\n`,
    );
    const r = spawnSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', pkgRoot, path.join(debs, `${name}_1.0_amd64.deb`)], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`dpkg-deb: ${r.stderr}`);
    rmSync(path.join(pkgRoot, 'DEBIAN'), { recursive: true });
    mkdirSync(path.join(tree, 'usr', 'lib'), { recursive: true });
    spawnSync('cp', ['-a', files, path.join(tree, 'usr', 'lib')]);
  }
  const config = path.join(dir, 'image.yml');
  writeFileSync(config, `contents:\n  packages: [${names.join(', ')}]\n`);
  const packageBytes = readdirSync(debs).reduce((n, f) => n + statSync(path.join(debs, f)).size, 0);
  return { debs, tree, config, packageBytes };
}

function measure(label, fn, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(fn(i));
  const m = {
    ms: median(results.map((r) => r.ms)),
    cpuMs: median(results.map((r) => r.cpuMs)),
    rssMB: Math.max(...results.map((r) => r.rssMB ?? 0)),
    bytes: results[0].bytes,
  };
  console.log(
    `${label.padEnd(44)}: median ${m.ms.toFixed(0).padStart(6)} ms wall, ${m.cpuMs.toFixed(0).padStart(6)} ms CPU${m.rssMB ? `, peak RSS ${m.rssMB.toFixed(0).padStart(4)} MB` : ''}, output ${(m.bytes / 1e6).toFixed(1)} MB`,
  );
  return m;
}

function build(set, dir) {
  return (i) => {
    const out = path.join(dir, `out-${i}`);
    const r = spawnSync(process.execPath, [self, '--child', set.config, set.debs, out], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    rmSync(out, { recursive: true, force: true });
    return JSON.parse(r.stdout);
  };
}

function floor(set, dir) {
  return () => {
    const out = path.join(dir, 'floor.tar.gz');
    const t0 = performance.now();
    // bash's `times` reports the CPU its children (tar, gzip) used: the floor's CPU time
    const r = spawnSync('bash', ['-c', `tar -cf - -C "${set.tree}" . | gzip -6 > "${out}"; times`], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(String(r.stderr));
    const [user = '0m0s', sys = '0m0s'] = (r.stdout.trim().split('\n')[1] ?? '').split(' ');
    const secs = (t) => Number(/^(\d+)m/.exec(t)?.[1] ?? 0) * 60 + Number(/m([\d.]+)s/.exec(t)?.[1] ?? 0);
    const bytes = statSync(out).size;
    rmSync(out);
    return { ms, cpuMs: (secs(user) + secs(sys)) * 1000, bytes };
  };
}

const runs = Number(process.env.BENCH_RUNS ?? 3);
const mb = Number(process.env.BENCH_IMAGE_MB ?? 100);
const dir = mkdtempSync(path.join(os.tmpdir(), 'linkerd-image-bench-'));
try {
  const large = makePackages(path.join(dir, 'large'), mb);
  const small = makePackages(path.join(dir, 'small'), mb / 2);
  console.log(`input: ${mb} MB of files in 20 .debs (${(large.packageBytes / 1e6).toFixed(1)} MB of packages), and half that; ${runs} runs each`);
  const floorLarge = measure(`floor: tar | gzip -6 of the tree (${mb} MB)`, floor(large, dir), runs);
  const buildLarge = measure(`linkerd image build (${mb} MB)`, build(large, dir), runs);
  const buildSmall = measure(`linkerd image build (${mb / 2} MB)`, build(small, dir), runs);
  // CPU time is the verdict: on a shared machine wall time mostly measures the neighbours.
  const ratio = buildLarge.cpuMs / floorLarge.cpuMs;
  console.log(
    `CPU ratio to floor at ${mb} MB: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${ratio <= TARGET_RATIO ? 'OK' : 'MISSED'}; wall ratio ${(buildLarge.ms / floorLarge.ms).toFixed(2)}×`,
  );
  const growth = buildLarge.rssMB - buildSmall.rssMB;
  const bound = mb / 2 / 4;
  console.log(
    `peak RSS growth for ${mb / 2} MB more data: ${growth.toFixed(0)} MB (target ≤ ${bound} MB: memory does not follow the image size) ${growth <= bound ? 'OK' : 'MISSED'}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

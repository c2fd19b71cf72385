#!/usr/bin/env node
// `linkerd install --ignore-cluster` — a full render including key generation (trust anchor,
// issuer, three webhook serving certificates) — against the floor of the same machine and
// run: `node -e 0`. Target: ≤ 3×. Also reports the pinned render (certificates from
// fixtures/certs, no key generation) and the phases of one in-process render, to show where
// the time goes. BENCH_RUNS sets the number of runs of each (default 15).
import { spawnSync } from 'node:child_process';
import { FLOOR, linkerd, medians, root, runs, verdict, withoutSnapshot } from './startup.mjs';

const generated = [linkerd, 'install', '--ignore-cluster'];
const certs = 'fixtures/certs/valid';
const pinned = [
  ...generated,
  '--identity-trust-anchors-file',
  `${certs}-trust-anchors.pem`,
  '--identity-issuer-certificate-file',
  `${certs}-crt.pem`,
  '--identity-issuer-key-file',
  `${certs}-key.pem`,
];

const [floor, gen, pin, bundle] = medians([FLOOR, generated, pinned, withoutSnapshot(generated)]);
console.log(`node -e 0                                   : median ${floor.toFixed(1)} ms (${runs} runs)`);
console.log(`linkerd install --ignore-cluster            : median ${gen.toFixed(1)} ms (${runs} runs, generates 5 keys)`);
console.log(`  … with certificates from files            : median ${pin.toFixed(1)} ms (${runs} runs)`);
console.log(`  … without the start-up snapshot (bundle)  : median ${bundle.toFixed(1)} ms (${runs} runs, ${(bundle / floor).toFixed(2)}×)`);
console.log(verdict(gen / floor, 3));

// Where one render's time goes, measured in a fresh process (module loading dominates).
const phases = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `
    const t0 = performance.now(); let t = t0; const out = [];
    const lap = (l) => { const n = performance.now(); out.push(l + ' ' + (n - t).toFixed(0) + ' ms'); t = n; };
    await import('commander'); lap('import commander');
    await import('zod'); lap('import zod');
    await import('${root}dist/src/core/values/index.js'); lap('import values (js-yaml, schema)');
    await import('${root}dist/src/core/pki/index.js'); lap('import pki (@peculiar/x509, tsyringe, asn1-*)');
    const { renderInstall } = await import('${root}dist/src/core/install/index.js'); lap('import templates + install');
    const r = await renderInstall({ namespace: 'linkerd', crds: false, flags: [], valuesFiles: [], set: [], setString: [], setFile: [] }); lap('compose values, generate 5 keys and certificates, render');
    const { renderManifest } = await import('${root}dist/src/cli/output/manifest.js');
    renderManifest(r.objects, 'yaml'); lap('serialize YAML');
    console.log(out.join('\\n'));
    `,
  ],
  { cwd: root, encoding: 'utf8' },
);
console.log('phases of one render from the unbundled modules in dist/src (attribution only; bin/linkerd starts from the snapshot or the bundle):');
console.log((phases.stdout || phases.stderr).trim().replace(/^/gm, '  '));

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { expectedInventory, inventoryDiff, inventoryOf, VOLATILE } from '../../support/fieldInventory.js';

const fixture = (name: string) => fileURLToPath(new URL(`golden/${name}.fields.yaml`, import.meta.url));

/** The render's inventory; the heartbeat runs daily 10 minutes after the install time (UTC, zero-padded `MM HH`), so only its shape is pinned. */
function installInventory(stdout: string) {
  const inv = inventoryOf(stdout);
  const cron = inv['CronJob/linkerd-heartbeat -n linkerd'];
  expect(cron['spec.schedule']).toMatch(/^\d{2} \d{2} \* \* \*$/);
  cron['spec.schedule'] = VOLATILE;
  return inv;
}

/**
 * `linkerd install` printed, parsed and flattened field by field, against a reviewed expectation
 * (checked against linkerd2's charts/linkerd-control-plane at this release; see docs/commands/install.md).
 * A failure lists each object and field path that appeared, disappeared or changed.
 */
describe('install: the whole render, field by field, against the reviewed expectation', () => {
  it('matches install-default.fields.yaml in every object and field', async () => {
    const r = await runCli(['install', '--ignore-cluster']);
    expect(r.code).toBe(0);
    const actual = installInventory(r.stdout);
    expect(inventoryDiff(expectedInventory(fixture('install-default'), actual), actual)).toEqual([]);
  });

  it('matches install-ha.fields.yaml with --ha', async () => {
    const r = await runCli(['install', '--ignore-cluster', '--ha']);
    expect(r.code).toBe(0);
    const actual = installInventory(r.stdout);
    expect(inventoryDiff(expectedInventory(fixture('install-ha'), actual), actual)).toEqual([]);
  });

  it('keeps certificates and keys out of the expectation, and reports a changed, a missing and an extra field by path', async () => {
    const r = await runCli(['install', '--ignore-cluster']);
    const actual = installInventory(r.stdout);
    const cm = actual['ConfigMap/linkerd-config -n linkerd'];
    expect(cm['data.values.identityTrustAnchorsPEM']).toBe(VOLATILE);
    expect(actual['Secret/linkerd-identity-issuer -n linkerd']['data.crt.pem']).toBe(VOLATILE);

    const expected = structuredClone(actual);
    const want = expected['ConfigMap/linkerd-config -n linkerd'];
    want['data.values.proxy.logLevel'] = 'debug';
    delete want['data.values.clusterDomain'];
    want['data.values.gone'] = true;
    delete expected['Namespace/linkerd'];
    expect(inventoryDiff(expected, actual)).toEqual([
      'Namespace/linkerd: object not in the expectation',
      'ConfigMap/linkerd-config -n linkerd: data.values.proxy.logLevel is "warn,linkerd=info,hickory=error", expected "debug"',
      'ConfigMap/linkerd-config -n linkerd: data.values.gone missing (expected true)',
      'ConfigMap/linkerd-config -n linkerd: data.values.clusterDomain not expected (rendered "cluster.local")',
    ]);
  });
});

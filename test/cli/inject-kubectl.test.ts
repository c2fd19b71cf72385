import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';
import { kubectlWithInput } from '../support/kubectl.js';

/* What inject prints for several inputs is one stream the real kubectl reads whole. */

describe('inject output read by kubectl', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ fromYaml: 'fixtures/clusters/empty.yaml' });
  });
  afterAll(() => server.stop());

  it.each([
    ['YAML then JSON', ['fixtures/manifests/parity/mixed']],
    ['JSON then YAML', ['fixtures/manifests/parity/mixed/b-cart.json', 'fixtures/manifests/parity/mixed/a-api.yaml']],
  ])('%s: kubectl sees every object', async (_name, inputs) => {
    const injected = await runCli(['inject', '--ignore-cluster', ...inputs]);
    expect(injected.code).toBe(0);
    const r = await kubectlWithInput(server, injected.stdout, 'create', '--dry-run=client', '--validate=false', '-o', 'name', '-f', '-');
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['deployment.apps/api', 'deployment.apps/cart']);
  });
});

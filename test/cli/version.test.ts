import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../support/apiserver.js';
import { runCli } from '../support/cli.js';

describe('linkerd version (CLI)', () => {
  it('--client prints the client version only', async () => {
    expect(await runCli(['version', '--client'])).toEqual({ code: 0, stdout: 'Client version: edge-26.9.1\n', stderr: '' });
    expect((await runCli(['version', '--client', '--short'])).stdout).toBe('edge-26.9.1\n');
  });

  it('prints `Server version: unavailable` and exits 0 when there is no cluster', async () => {
    expect(await runCli(['version'])).toEqual({ code: 0, stdout: 'Client version: edge-26.9.1\nServer version: unavailable\n', stderr: '' });
  });

  describe('against a cluster with Linkerd installed', () => {
    let server: ApiServer;
    beforeAll(async () => {
      server = await startApiServer({
        fromYaml: 'fixtures/clusters/empty.yaml',
        objects: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'linkerd-config', namespace: 'linkerd' },
            data: { values: 'linkerdVersion: edge-26.8.2\nclusterDomain: cluster.local\n' },
          },
        ],
      });
    });
    afterAll(() => server.stop());

    it('prints the linkerdVersion of linkerd-config as the server version', async () => {
      expect(await runCli(['version', '--kubeconfig', server.kubeconfigPath])).toEqual({
        code: 0,
        stdout: 'Client version: edge-26.9.1\nServer version: edge-26.8.2\n',
        stderr: '',
      });
      expect((await runCli(['version', '--short', '--kubeconfig', server.kubeconfigPath])).stdout).toBe('edge-26.9.1\nedge-26.8.2\n');
    });

    it('looks in the -L namespace', async () => {
      expect((await runCli(['version', '-L', 'other', '--kubeconfig', server.kubeconfigPath])).stdout).toBe(
        'Client version: edge-26.9.1\nServer version: unavailable\n',
      );
    });
  });
});

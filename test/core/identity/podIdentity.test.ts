import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podIdentities } from '../../../src/core/identity/podIdentity.js';
import { encodePem, generateEcdsaP256Key, keyPairFromKeyObject, parseCertificates, parsePrivateKey, toSec1Pem, x509 } from '../../../src/core/pki/index.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApiServer, writeKubeconfig, type ApiServer, type StoredObject } from '../../support/apiserver.js';
import { runCli } from '../../support/cli.js';
import { healthyCluster, makePki, type Pki } from '../check/support/clusters.js';
import { NS, selection } from './support.js';

/*
 * `linkerd identity POD` end to end: the CLI port-forwards through the loopback API server's
 * WebSocket endpoint to a local TLS listener that plays the proxy's admin port, presenting a
 * workload certificate issued by the cluster's issuer.
 */

const IDENTITY = 'linkerd-destination.linkerd.serviceaccount.identity.linkerd.cluster.local';

async function workloadCertificate(pki: Pki): Promise<{ certPem: string; keyPem: string }> {
  const [issuer] = parseCertificates(pki.issuer.certPem, 'issuer');
  const signer = await keyPairFromKeyObject(parsePrivateKey(pki.issuer.keyPem, 'issuer key').keyObject);
  const keys = await generateEcdsaP256Key();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '2a',
    subject: [{ CN: [IDENTITY] }],
    issuer: issuer.subjectName,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    publicKey: keys.publicKey,
    signingKey: signer.privateKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: IDENTITY }]),
    ],
  });
  return { certPem: encodePem('CERTIFICATE', cert.rawData), keyPem: toSec1Pem(keys.privateKey) };
}

let server: ApiServer;
let admin: tls.Server;
let adminPort = 0;
const sni: string[] = [];
let podName = '';
let leafSerial = '';

beforeAll(async () => {
  const pki = await makePki();
  const cluster = await healthyCluster({ pki });
  const leaf = await workloadCertificate(pki);
  leafSerial = '2a';
  // The proxy serves its own certificate followed by the issuer's, as linkerd's proxy does.
  const context = tls.createSecureContext({ cert: `${leaf.certPem}${pki.issuer.certPem}`, key: leaf.keyPem });
  admin = tls.createServer(
    {
      cert: `${leaf.certPem}${pki.issuer.certPem}`,
      key: leaf.keyPem,
      SNICallback: (name, done) => {
        sni.push(name); // recorded during the handshake, before the client can hang up
        done(null, context);
      },
    },
    (s) => s.end(),
  );
  await new Promise<void>((r) => admin.listen(0, '127.0.0.1', r));
  adminPort = (admin.address() as net.AddressInfo).port;
  const stopped: StoredObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pending-pod', namespace: NS },
    spec: { containers: [{ name: 'app' }] },
    status: { phase: 'Pending' },
  };
  const plain: StoredObject = { ...stopped, metadata: { name: 'plain-pod', namespace: NS, labels: { app: 'plain' } }, status: { phase: 'Running' } };
  server = await startApiServer({ objects: [...cluster.objects, stopped, plain] });
  podName = server.objects('v1', 'Pod', NS).find((p) => p.metadata.name.startsWith('linkerd-destination-'))?.metadata.name ?? '';
  server.setPortForward((namespace, pod, port) => (namespace === NS && pod === podName && port === 4191 ? { host: '127.0.0.1', port: adminPort } : undefined));
});

afterAll(async () => {
  await server.stop();
  await new Promise<void>((r) => admin.close(() => r()));
});

describe('linkerd identity POD (port-forward over WebSocket)', () => {
  it('fetches the proxy certificate with the pod identity as SNI, leaving out the CA', async () => {
    sni.length = 0;
    server.resetRequests();
    const results = await podIdentities({ selection: selection(server), namespace: NS, pods: [podName] });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ pod: podName, identity: IDENTITY });
    expect(results[0]?.certificates.map((c) => c.subject)).toEqual([`CN=${IDENTITY}`]);
    expect(sni).toEqual([IDENTITY]);
    expect(server.requests.map((r) => `${r.path}?${r.query}`)).toContain(`/api/v1/namespaces/${NS}/pods/${podName}/portforward?ports=4191`);
  });

  it('prints the real CLI’s per-pod text through the built CLI, by name or by selector', async () => {
    for (const args of [[podName], ['-l', 'linkerd.io/control-plane-component=destination']]) {
      const r = await runCli(['identity', '-n', NS, '--kubeconfig', server.kubeconfigPath, ...args]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `^\\nPOD ${podName} \\(1 of 1\\)\\n\\nCertificate:\\n    Data:\\n        Version: 3 \\(0x2\\)\\n        Serial Number: 42 \\(0x${leafSerial}\\)\\n`,
        ),
      );
      expect(r.stdout).toContain(`        Subject: CN=${IDENTITY}\n`);
      expect(r.stdout).toContain('        Issuer: CN=identity.linkerd.cluster.local\n');
      expect(r.stdout).toContain(`                DNS:${IDENTITY}\n`);
    }
  });

  it('looks for the pod in the kubeconfig context’s namespace when -n is not given, as the real CLI does', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'identity-ns-'));
    try {
      const kubeconfig = writeKubeconfig(path.join(dir, 'config'), [
        { name: 'ns', server: server.url, caPem: server.caPem, token: server.token, namespace: NS },
      ]);
      server.resetRequests();
      const r = await runCli(['identity', '--kubeconfig', kubeconfig, podName]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(server.requests.map((q) => q.path)).toContain(`/api/v1/namespaces/${NS}/pods/${podName}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses pods that are not running, not meshed, or whose port nothing serves', async () => {
    const sel = selection(server);
    await expect(podIdentities({ selection: sel, namespace: NS, pods: ['pending-pod'] })).rejects.toThrow('pod not running: pending-pod');
    await expect(podIdentities({ selection: sel, namespace: NS, pods: ['plain-pod'] })).rejects.toThrow(
      'failed to find linkerd-admin port in linkerd-proxy container for given pod spec',
    );
    const other = server.objects('v1', 'Pod', NS).find((p) => p.metadata.name.startsWith('linkerd-identity-'))?.metadata.name ?? '';
    await expect(podIdentities({ selection: sel, namespace: NS, pods: [other] })).rejects.toThrow(
      `port-forward to ${NS}/${other}:4191: error forwarding port 4191 to pod ${other}: nothing listens on that port`,
    );
  });
});

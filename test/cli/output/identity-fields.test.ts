import { describe, expect, it } from 'vitest';
import { inspectPem } from '../../../src/core/identity/inspect.js';
import { createTrustAnchor } from '../../../src/core/pki/index.js';
import { inspectText } from '../../../src/cli/output/identity-inspect.js';
import { podIdentityText } from '../../../src/cli/output/identity-pods.js';
import { createdText } from '../../../src/cli/output/identity-created.js';
import { parseCertificates, certificateInfo } from '../../../src/core/pki/index.js';
import { terminalField, terminalReport } from '../../../src/cli/output/sanitize.js';

const DAY = 86_400_000;
/** A subject that tries to print a line of its own, with an escape sequence for good measure. */
const HOSTILE_CN = 'root.linkerd.cluster.local\n  Chains to:  CN=trusted\r\n\u001b[2Jdone';

describe('certificate fields on a terminal', () => {
  it('terminalField keeps one line and shows line breaks', () => {
    expect(terminalField('a\nb\r\nc\rd\u001b[31m')).toBe('a\\nb\\r\\nc\\rd');
  });

  it('identity inspect keeps each field of a certificate (SAN, subject, source) on its own line', async () => {
    const anchor = await createTrustAnchor({ commonName: HOSTILE_CN, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) });
    const report = await inspectPem({ text: anchor.certPem, source: 'ca\n.crt' });
    const text = terminalReport(inspectText(report));
    const lines = text.split('\n');
    // The SAN (the CN as a DNS name) is where the raw newline used to reach the terminal.
    expect(lines.filter((l) => /^\s*Chains to/.test(l))).toEqual([]);
    expect(lines.find((l) => l.startsWith('  SANs:'))).toBe('  SANs:       DNS:root.linkerd.cluster.local\\n  Chains to:  CN=trusted\\r\\ndone');
    expect(lines[0]).toMatch(/^ca\\n\.crt: certificate 1 of 1 \(ca\\n\.crt:1\)$/);
    expect(text).not.toContain('\u001b');
  });

  it('the pod and created-certificate texts do too', async () => {
    const anchor = await createTrustAnchor({ commonName: HOSTILE_CN, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) });
    const [cert] = parseCertificates(anchor.certPem, 'ca');
    const pods = podIdentityText([{ pod: 'web\nPOD fake', identity: 'x', certificates: [cert] }]);
    expect(pods.split('\n').filter((l) => l.startsWith('POD '))).toEqual(['POD web\\nPOD fake (1 of 1)']);
    expect(pods.split('\n').filter((l) => /^\s*Chains to/.test(l))).toEqual([]);
    const created = createdText('trust anchor', { info: certificateInfo(cert), certPath: 'ca.crt', keyPath: 'ca.key', notes: [] });
    expect(created.split('\n').filter((l) => /^\s*Chains to/.test(l))).toEqual([]);
  });
});

import type { CommandSpec } from '../kit/command.js';
import type { CliIo } from '../kit/io.js';
import { terminalReport, notesText } from '../output/sanitize.js';

type StepOutput = { objects: object[]; notes: string[] };

/** The families' trust peers (multicluster's Links): every step reads them, so linked clusters move together. */
async function peerSources() {
  const { trustPeerSources } = await import('../../families/trustPeers.js');
  return trustPeerSources();
}

/** The manifest on stdout (for `kubectl apply -f -`), what to do next on stderr. */
async function printStep(result: StepOutput, io: CliIo): Promise<void> {
  const { renderManifest } = await import('../output/manifest.js');
  io.stdout.write(renderManifest(result.objects, 'yaml'));
  io.stderr.write(notesText(result.notes));
}

const status: CommandSpec = {
  name: 'status',
  summary: 'Where the rotation stands: stage, certificates, pods that still run with old anchors, next command',
  flags: [{ name: 'output', short: 'o', type: 'string', default: 'text', help: 'Output format: text or json' }],
  run: async ({ flags, globals, io }) => {
    const { parseFlags, StatusFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(StatusFlags, flags);
    const { readRotationState } = await import('../../core/identity/rotationState.js');
    const state = await readRotationState(globals, globals.linkerdNamespace, new Date(), await peerSources());
    const { rotationJson, rotationText } = await import('../output/identity-rotation.js');
    io.stdout.write(opts.output === 'json' ? rotationJson(state) : terminalReport(rotationText(state)));
    // A half-applied step, or an issuer meshed pods reject, is a problem (1); a linked cluster
    // that could not be read leaves the rotation's safety unknown (2); any other stage is a
    // rotation at rest or on its way.
    if (state.stage === 'inconsistent' || state.stage === 'issuer-untrusted') return 1;
    return state.peers?.some((p) => p.status === 'unknown') ? 2 : 0;
  },
};

const addAnchor: CommandSpec = {
  name: 'add-anchor',
  summary: 'Render the trust bundle with a new anchor added, everywhere the anchors live',
  flags: [
    { name: 'trust-anchor-file', type: 'string', required: true, help: 'The new trust anchor (PEM)' },
    { name: 'force', type: 'bool', default: false, help: 'Proceed although the anchors in the cluster disagree' },
  ],
  run: async ({ flags, globals, io }) => {
    const { parseFlags, AddAnchorFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(AddAnchorFlags, flags);
    const { addAnchor } = await import('../../core/identity/rotationSteps.js');
    await printStep(await addAnchor({ selection: globals, namespace: globals.linkerdNamespace, ...opts, peers: await peerSources() }), io);
  },
};

const issuer: CommandSpec = {
  name: 'issuer',
  summary: 'Render the issuer Secret with a new issuer; refused while a meshed pod does not trust its anchor',
  flags: [
    { name: 'issuer-certificate-file', type: 'string', help: 'The new issuer certificate (PEM)' },
    { name: 'issuer-key-file', type: 'string', help: 'The new issuer private key (PEM)' },
    { name: 'trust-anchor-key', type: 'string', help: 'With --generate: the private key of the signing anchor' },
    { name: 'validity', type: 'duration', default: '8760h', help: 'With --generate: validity of the issuer (cut to the anchor’s)' },
    { name: 'generate', type: 'bool', default: false, help: 'Generate the issuer, signed by the bundle anchor whose key is --trust-anchor-key' },
    { name: 'force', type: 'bool', default: false, help: 'Proceed although meshed pods do not trust the new issuer’s anchor yet' },
  ],
  run: async ({ flags, globals, io }) => {
    const { parseFlags, durationMs, IssuerFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(IssuerFlags, flags);
    const { switchIssuer, issuerSource } = await import('../../core/identity/rotationSteps.js');
    const source = issuerSource(opts.generate, opts.trustAnchorKey, durationMs(opts.validity));
    await printStep(await switchIssuer({ selection: globals, namespace: globals.linkerdNamespace, ...opts, generate: source }), io);
  },
};

const removeAnchor: CommandSpec = {
  name: 'remove-anchor',
  summary: 'Render the trust bundle without the old anchors; refused while the issuer, a pod or a linked cluster depends on them',
  flags: [
    { name: 'trust-anchor-file', type: 'string', help: 'Keep only the anchors of this file' },
    { name: 'keep', type: 'stringArray', default: [], help: 'Keep the anchor with this SHA-256 fingerprint (repeatable; a unique prefix of 8+ digits)' },
    { name: 'force', type: 'bool', default: false, help: 'Proceed although pods were not restarted yet or linked clusters are not ready (with a warning)' },
  ],
  run: async ({ flags, globals, io }) => {
    const { parseFlags, RemoveAnchorFlags } = await import('../flags/identityFlags.js');
    const opts = parseFlags(RemoveAnchorFlags, flags);
    const { removeAnchor } = await import('../../core/identity/rotationSteps.js');
    await printStep(await removeAnchor({ selection: globals, namespace: globals.linkerdNamespace, ...opts, peers: await peerSources() }), io);
  },
};

/** `linkerd identity rotate status|add-anchor|issuer|remove-anchor`. */
export const rotate: CommandSpec = {
  name: 'rotate',
  summary: 'Guided trust-anchor and issuer rotation; every step reads the cluster, so a half-done rotation resumes',
  subcommands: [status, addAnchor, issuer, removeAnchor],
};

import type { Pod } from 'kubernetes-types/core/v1.js';
import { describe, expect, it } from 'vitest';
import { isFinishedJobPod, podStatus, proxyReady, terminalProblem } from '../../../src/core/check/pods.js';
import { networkContainsCidr, networkContainsIp, parseCidr } from '../../../src/core/net/cidr.js';

const pod = (status: Pod['status'], spec: Pod['spec'] = { containers: [{ name: 'app' }] }, metadata: Pod['metadata'] = { name: 'p' }): Pod => ({
  metadata,
  spec,
  status,
});

describe('pod status as kubectl shows it', () => {
  it('is the phase for a healthy pod', () => {
    expect(
      podStatus(pod({ phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }] })),
    ).toBe('Running');
  });

  it('is the waiting reason of a container', () => {
    const p = pod({
      phase: 'Running',
      containerStatuses: [{ name: 'app', ready: false, restartCount: 3, image: '', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
    });
    expect(podStatus(p)).toBe('CrashLoopBackOff');
  });

  it('is Completed for a finished pod and Init:n/m while init containers run', () => {
    const done = pod({
      phase: 'Succeeded',
      containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
    });
    expect(podStatus(done)).toBe('Completed');
    const init = pod(
      { phase: 'Pending', initContainerStatuses: [{ name: 'linkerd-init', ready: false, restartCount: 0, image: '', imageID: '', state: { running: {} } }] },
      { initContainers: [{ name: 'linkerd-init' }], containers: [{ name: 'app' }] },
    );
    expect(podStatus(init)).toBe('Init:0/1');
  });

  it('treats a running native sidecar as started', () => {
    const p = pod(
      {
        phase: 'Running',
        initContainerStatuses: [{ name: 'linkerd-proxy', ready: true, started: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: '', imageID: '', state: { running: {} } }],
      },
      { initContainers: [{ name: 'linkerd-proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] },
    );
    expect(podStatus(p)).toBe('Running');
    expect(proxyReady(p)).toBe(true);
  });
});

describe('terminal pod states', () => {
  it('recognises unschedulable pods, crash loops, image pull failures and failed pods', () => {
    expect(
      terminalProblem(
        pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available' }] }),
      ),
    ).toEqual({
      state: 'unschedulable',
      detail: 'is unschedulable: 0/1 nodes are available',
    });
    expect(
      terminalProblem(
        pod({
          phase: 'Running',
          containerStatuses: [{ name: 'app', ready: false, restartCount: 4, image: '', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        }),
      )?.state,
    ).toBe('crash-loop');
    expect(
      terminalProblem(
        pod({
          phase: 'Pending',
          containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'ErrImagePull' } } }],
        }),
      )?.state,
    ).toBe('image-pull');
    expect(terminalProblem(pod({ phase: 'Failed', reason: 'Evicted' }))?.detail).toBe('has failed (Evicted)');
  });

  it('does not call a starting pod terminal', () => {
    expect(
      terminalProblem(
        pod({
          phase: 'Pending',
          containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ),
    ).toBeUndefined();
  });

  it('ignores finished Job pods', () => {
    const job = { name: 'j', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u' }] };
    expect(isFinishedJobPod(pod({ phase: 'Succeeded' }, undefined, job))).toBe(true);
    expect(isFinishedJobPod(pod({ phase: 'Failed' }, undefined, job))).toBe(true);
    expect(terminalProblem(pod({ phase: 'Failed' }, undefined, job))).toBeUndefined();
    expect(isFinishedJobPod(pod({ phase: 'Running' }, undefined, job))).toBe(false);
  });
});

describe('cluster network containment', () => {
  it('matches IPv4 and IPv6 addresses and narrower CIDRs', () => {
    const net = parseCidr('10.0.0.0/8');
    expect(networkContainsIp(net, '10.244.1.2')).toBe(true);
    expect(networkContainsIp(net, '192.168.1.2')).toBe(false);
    expect(networkContainsCidr(net, parseCidr('10.244.0.0/24'))).toBe(true);
    expect(networkContainsCidr(parseCidr('10.244.0.0/24'), parseCidr('10.0.0.0/8'))).toBe(false);
    expect(networkContainsIp(parseCidr('fd00::/8'), 'fd12:3456::1')).toBe(true);
    expect(networkContainsIp(parseCidr('fd00::/8'), '10.0.0.1')).toBe(false);
    expect(() => parseCidr('10.0.0.0')).toThrow('invalid CIDR address: 10.0.0.0');
  });
});

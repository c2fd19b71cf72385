import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1.js';
import type { TerminalState } from './types.js';
import { PROXY_CONTAINER_NAME } from '../mesh/names.js';

const isRestartableInit = (spec: Pod['spec'], name: string) => spec?.initContainers?.find((c) => c.name === name)?.restartPolicy === 'Always';

/**
 * kubectl's STATUS column (what linkerd's `k8s.GetPodStatus` computes): the phase, or the
 * reason of the container that explains why the pod is not running (`CrashLoopBackOff`,
 * `Init:0/2`, `Completed`, …). Native sidecars (restartable init containers) that are
 * running count as started, as in current kubectl.
 */
export function podStatus(pod: Pod): string {
  let reason: string = pod.status?.reason || pod.status?.phase || 'Unknown';
  const initStatuses = pod.status?.initContainerStatuses ?? [];
  const initCount = pod.spec?.initContainers?.length ?? initStatuses.length;
  let initializing = false;
  for (const [i, c] of initStatuses.entries()) {
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && terminated.exitCode === 0 && !terminated.signal) continue;
    if (isRestartableInit(pod.spec, c.name) && c.started && c.state?.running) continue;
    if (terminated)
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode}`;
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${initCount}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    let hasRunning = false;
    const statuses = pod.status?.containerStatuses ?? [];
    for (const c of [...statuses].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated) reason = c.state.terminated.signal ? `Signal:${c.state.terminated.signal}` : `ExitCode:${c.state.terminated.exitCode}`;
      else if (c.ready && c.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  if (pod.metadata?.deletionTimestamp) reason = pod.status?.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function allStatuses(pod: Pod): ContainerStatus[] {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
}

/** linkerd's `k8s.GetProxyReady`: the `linkerd-proxy` container reports ready. */
export function proxyReady(pod: Pod): boolean {
  return allStatuses(pod).some((s) => s.name === PROXY_CONTAINER_NAME && s.ready);
}

/** Finished Job pods have no proxy to wait for (linkerd/linkerd2#6128). */
export function isFinishedJobPod(pod: Pod): boolean {
  const ownedByJob = (pod.metadata?.ownerReferences ?? []).some((o) => o.kind === 'Job');
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || (ownedByJob && phase === 'Failed');
}

const IMAGE_PULL = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);

export interface TerminalProblem {
  state: TerminalState;
  /** Reads after `pod/<name> `: `is unschedulable: …`, `container web is crash-looping (…)`, … */
  detail: string;
}

/**
 * Why this pod will not become ready by waiting, if it will not: it cannot be scheduled,
 * a container is crash-looping or its image cannot be pulled, or the pod has failed.
 */
export function terminalProblem(pod: Pod): TerminalProblem | undefined {
  const unschedulable = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  if (unschedulable) return { state: 'unschedulable', detail: `is unschedulable: ${unschedulable.message ?? ''}`.trimEnd() };
  for (const s of allStatuses(pod)) {
    const waiting = s.state?.waiting;
    if (!waiting?.reason) continue;
    const more = waiting.message ? `: ${waiting.message}` : '';
    if (waiting.reason === 'CrashLoopBackOff') {
      return { state: 'crash-loop', detail: `container ${s.name} is crash-looping (CrashLoopBackOff, ${s.restartCount} restarts)${more}` };
    }
    if (IMAGE_PULL.has(waiting.reason)) {
      return { state: 'image-pull', detail: `container ${s.name} cannot pull its image (${waiting.reason})${more}` };
    }
  }
  if (pod.status?.phase === 'Failed' && !isFinishedJobPod(pod)) {
    const why = pod.status.reason ? ` (${pod.status.reason})` : '';
    return { state: 'pod-failed', detail: `has failed${why}${pod.status.message ? `: ${pod.status.message}` : ''}` };
  }
  return undefined;
}

export function podName(pod: Pod): string {
  return pod.metadata?.name ?? '';
}

export function podNamespace(pod: Pod): string {
  return pod.metadata?.namespace ?? '';
}

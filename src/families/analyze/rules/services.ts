import { list, record, stringMap } from '../objects.js';
import { parseSelector } from '../selector.js';
import { describeWorkload } from '../workloads.js';
import type { RuleGroup } from './group.js';

export const serviceRules: RuleGroup = {
  rules: [
    {
      code: 'LA7001',
      severity: 'error',
      title: 'Service targetPort name no selected pod declares',
      what: "A Service port's `targetPort` is a name that no container of the workloads its selector selects declares.",
      why: 'Kubernetes gets no endpoint for that port from those pods: clients connect to nothing, and Linkerd has no endpoint to balance over.',
      fix: "Use the name the container's port declares, or the number.",
    },
  ],
  check({ index }, report) {
    for (const svc of index.services) {
      const spec = record(svc.body.spec);
      const selector = stringMap(spec.selector);
      if (Object.keys(selector).length === 0) continue;
      const selected = index.select(svc.namespace, parseSelector({ matchLabels: selector }));
      if (selected.length === 0) continue;
      list(spec.ports).forEach((p, i) => {
        const target = record(p).targetPort;
        if (typeof target !== 'string') return;
        const missing = selected.filter((w) => !w.ports.some((cp) => cp.name === target));
        if (missing.length === selected.length) {
          report(
            'LA7001',
            svc,
            `targetPort "${target}" is not a port name of any container of ${missing.map(describeWorkload).join(', ')}, so the Service has no endpoints on it; use a declared port name or the number`,
            ['spec', 'ports', i, 'targetPort'],
          );
        }
      });
    }
  },
};

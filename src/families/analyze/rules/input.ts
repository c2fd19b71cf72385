import { SERVED, newestServed } from '../mesh.js';
import type { RuleGroup } from './group.js';

/** Findings about how an object is written: repeated keys, API versions. */
export const inputRules: RuleGroup = {
  rules: [
    {
      code: 'LA1001',
      severity: 'warning',
      title: 'Duplicate key in one YAML mapping',
      what: 'A key appears twice in the same mapping of a manifest.',
      why: 'Only one of the values reaches the API server (kubectl keeps the last one, strict decoders refuse the object), so the value you read is not necessarily the one applied.',
      fix: 'Keep one occurrence of the key, with the value you mean.',
    },
    {
      code: 'LA1002',
      severity: 'error',
      title: 'API version not served by this release',
      what: "A Linkerd or Gateway API resource uses an apiVersion that this release's CRDs do not serve (for example ServerAuthorization policy.linkerd.io/v1beta2).",
      why: 'The API server rejects the object with "no matches for kind", so nothing of it applies.',
      fix: 'Use a served version; the message names the newest one.',
    },
    {
      code: 'LA1003',
      severity: 'warning',
      title: 'Deprecated API version',
      what: 'A resource uses an apiVersion the CRD still serves but marks deprecated.',
      why: 'kubectl warns on every apply and a later release stops serving the version.',
      fix: 'Move to the version the deprecation warning names.',
    },
  ],
  check({ index, repeatedKeys, reportAt }, report) {
    for (const r of repeatedKeys) {
      reportAt('LA1001', r.object, r.file, r.line, `key "${r.key}" is repeated in one mapping (line ${r.line}); only one value is applied: keep one`);
    }
    for (const o of index.objects) {
      const served = SERVED[`${o.group}/${o.kind}`];
      if (!served) continue;
      if (!served.served.includes(o.version)) {
        report(
          'LA1002',
          o,
          `${o.apiVersion} ${o.kind} is not served by this release (served: ${served.served.join(', ')}); use ${o.group}/${newestServed(served)}`,
          ['apiVersion'],
        );
      } else {
        const why = served.deprecated[o.version];
        if (why !== undefined) report('LA1003', o, why, ['apiVersion']);
      }
    }
  },
};

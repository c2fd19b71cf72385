import type { CheckFamily, CheckFamilyEntry } from '../../../../src/core/check/index.js';
import { fail, pass, type CheckDefinition, type CheckOutcome, type Severity } from '../../../../src/core/check/types.js';

/*
 * An extension family declared only through the public types, as viz or multicluster will be:
 * its own code range (90–92), categories for default/--proxy, --proxy only and --pre only,
 * and its own typed options slot.
 */

declare module '../../../../src/core/check/family.js' {
  interface CheckFamilyOptions {
    testext?: { greeting?: string };
  }
}

export interface TestFamilyOptions {
  /** The outcome of `testext pods are healthy` (default: pass). */
  health?: 'pass' | 'warn' | 'error';
  /** Make the fatal first check fail: the family's later checks must not run. */
  fatal?: boolean;
}

const check = (id: string, category: string, description: string, severity: Severity, run: CheckDefinition['run']): CheckDefinition => ({
  id,
  category,
  description,
  severity,
  hintAnchor: `l5d-testext-${id}`,
  retryable: false,
  run,
});

export function testFamily(o: TestFamilyOptions = {}): CheckFamily {
  const health = (): CheckOutcome => (o.health === undefined || o.health === 'pass' ? pass() : fail('pod "testext-0" is not ready'));
  return {
    name: 'testext',
    codes: { first: 90, last: 92 },
    categories: [
      {
        id: 'linkerd-testext',
        code: 90,
        modes: ['default', 'proxy'],
        checks: [
          check('L5D9001', 'linkerd-testext', 'linkerd-testext Namespace exists', 'fatal', async (ctx) => {
            const found = await ctx.list('namespaces', { labelSelector: 'linkerd.io/extension=testext' });
            if (o.fatal || found.length === 0) return fail('namespace with label "linkerd.io/extension: testext" not found');
            // The family's own slot, typed by the augmentation above.
            const greeting = ctx.options.families?.testext?.greeting;
            return pass(greeting);
          }),
          check('L5D9002', 'linkerd-testext', 'testext pods are healthy', o.health === 'error' ? 'error' : 'warning', async () => health()),
        ],
      },
      {
        id: 'linkerd-testext-data-plane',
        code: 91,
        modes: ['proxy'],
        checks: [check('L5D9101', 'linkerd-testext-data-plane', 'testext data plane is fine', 'warning', async () => pass())],
      },
      {
        id: 'linkerd-testext-pre',
        code: 92,
        modes: ['pre'],
        checks: [check('L5D9201', 'linkerd-testext-pre', 'testext can be installed', 'error', async () => pass())],
      },
    ],
  };
}

/** The family's entry, counting how often it was loaded. */
export function testEntry(o: TestFamilyOptions = {}, extension = 'testext'): CheckFamilyEntry & { loads: number } {
  const entry = {
    extension,
    loads: 0,
    load: async () => {
      entry.loads++;
      return testFamily(o);
    },
  };
  return entry;
}

export const labelled = (name: string, extension: string) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'linkerd.io/extension': extension } },
});

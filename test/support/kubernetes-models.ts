import * as admission from 'kubernetes-models/admissionregistration.k8s.io/v1';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1';
import { APIService } from 'kubernetes-models/apiregistration.k8s.io/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as batch from 'kubernetes-models/batch/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as policyV1beta1 from 'kubernetes-models/policy/v1beta1';
import * as rbac from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as core from 'kubernetes-models/v1';

/** The kubernetes-models class for each apiVersion/kind the install and upgrade render. */
const MODELS: Record<string, Record<string, new (data: object) => { validate(): void }>> = {
  v1: core as never,
  'apps/v1': apps as never,
  'batch/v1': batch as never,
  'policy/v1': policy as never,
  'policy/v1beta1': policyV1beta1 as never,
  'rbac.authorization.k8s.io/v1': rbac as never,
  'admissionregistration.k8s.io/v1': admission as never,
  'apiextensions.k8s.io/v1': { CustomResourceDefinition } as never,
  'apiregistration.k8s.io/v1': { APIService },
};

/** Validates what is printed (the JSON form of `o`) against its kind's OpenAPI schema; throws when invalid. */
export function validateKubernetesModel(o: { apiVersion: string; kind: string }): void {
  const Model = MODELS[o.apiVersion]?.[o.kind];
  if (!Model) throw new Error(`no model for ${o.apiVersion} ${o.kind}`);
  new Model(JSON.parse(JSON.stringify(o))).validate();
}

/** `Kind/name: reason` for each object that does not validate. */
export function kubernetesModelFailures(objects: readonly { apiVersion: string; kind: string; metadata: { name?: string } }[]): string[] {
  const failures: string[] = [];
  for (const o of objects) {
    try {
      validateKubernetesModel(o);
    } catch (e) {
      failures.push(`${o.kind}/${o.metadata.name ?? ''}: ${String(e).slice(0, 500)}`);
    }
  }
  return failures;
}

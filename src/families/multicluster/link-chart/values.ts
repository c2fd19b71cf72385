import * as z from 'zod';
import { UserError } from '../../../core/errors.js';
import { formatIssues, mergeValues, buildOverrides, type OverrideSources } from '../../../core/values/index.js';
import { cliCreatedBy } from '../../../core/version.js';

/*
 * The values of the linkerd-multicluster-link chart, which only the deprecated `link` renders (a
 * service mirror per Link, before `controllers:` existed). The real command loads the chart
 * without its values.yaml: only the Go struct's keys have values, every other key exists only if
 * the user sets it — so those are optional here and absent by default.
 */

const str = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), z.string());
const int = z.number().int();
const stringMap = z.record(z.string(), str);
const passthrough = z.record(z.string(), z.unknown());

export const LinkChartValuesSchema = z.strictObject({
  controllerImage: str,
  controllerImageVersion: str,
  gateway: z.strictObject({ enabled: z.boolean(), probe: z.strictObject({ port: z.number().int().min(0).max(65535) }) }),
  logLevel: str,
  logFormat: str,
  serviceMirrorRetryLimit: int.min(0),
  serviceMirrorUID: int,
  serviceMirrorGID: int,
  replicas: int.min(0),
  targetClusterName: str,
  enablePodAntiAffinity: z.boolean(),
  revisionHistoryLimit: int.min(0),
  cliVersion: str,
  // Outside the Go struct: set only by the user.
  enableHeadlessServices: z.boolean().optional(),
  enableNamespaceCreation: z.boolean().optional(),
  enablePprof: z.boolean().optional(),
  enablePSP: z.boolean().optional(),
  podAnnotations: stringMap.optional(),
  podLabels: stringMap.optional(),
  commonLabels: stringMap.optional(),
  imagePullSecrets: z.array(z.strictObject({ name: str })).optional(),
  nodeSelector: stringMap.optional(),
  tolerations: z.array(passthrough).optional(),
  resources: passthrough.optional(),
  nodeAffinity: passthrough.optional(),
});

export type LinkChartValues = z.infer<typeof LinkChartValuesSchema>;

/** The flags of `link` that set link-chart values. */
export interface LinkChartFlags {
  clusterName: string;
  gateway: boolean;
  serviceMirrorRetryLimit: number;
  logLevel: string;
  logFormat: string;
  controlPlaneVersion: string;
  /** `--registry`: the image is `<registry>/controller`. */
  registry: string;
  ha: boolean;
}

/** The Go struct's defaults (the chart's values.yaml, placeholder replaced by the CLI version) with `link`'s flags applied. */
export function linkChartDefaults(version: string, f: LinkChartFlags): LinkChartValues {
  return {
    controllerImage: `${f.registry.replace(/\/$/, '')}/controller`,
    controllerImageVersion: f.controlPlaneVersion || version,
    gateway: { enabled: f.gateway, probe: { port: 4191 } },
    logLevel: f.logLevel,
    logFormat: f.logFormat,
    serviceMirrorRetryLimit: f.serviceMirrorRetryLimit,
    serviceMirrorUID: 2103,
    serviceMirrorGID: 2103,
    replicas: 1,
    targetClusterName: f.clusterName,
    enablePodAntiAffinity: false,
    revisionHistoryLimit: 10,
    cliVersion: cliCreatedBy(version),
  };
}

/** The link chart's values-ha.yaml, merged under the user's `-f`/`--set` by `link --ha`. */
export const LINK_HA_OVERLAY = { enablePodAntiAffinity: true, replicas: 3 };

export function composeLinkChartValues(version: string, flags: LinkChartFlags, overrides: OverrideSources = {}): LinkChartValues {
  const merged = mergeValues(linkChartDefaults(version, flags), mergeValues(flags.ha ? LINK_HA_OVERLAY : {}, buildOverrides(overrides)));
  const result = LinkChartValuesSchema.safeParse(merged);
  if (!result.success) throw new UserError(formatIssues(result.error.issues, merged, 'values'));
  return result.data;
}

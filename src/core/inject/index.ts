/**
 * `linkerd inject` and `uninject`: proxy injection that edits the user's YAML in place.
 */
export { runInject, runUninject } from './run.js';
export type { InjectRequest, InjectResult, InputReport, UninjectRequest, UninjectResult } from './run.js';
export { injectStream } from './inject.js';
export type { InjectSettings, InjectStreamResult } from './inject.js';
export { uninjectStream, uninjectObject } from './uninject.js';
export { proxySettings } from './settings.js';
export type { ProxySettings } from './settings.js';
export { resolveBaseValues } from './baseValues.js';
export type { BaseValues, BaseValuesOptions } from './baseValues.js';
export { ANNOTATIONS, overrideAnnotations, applyAnnotations, annotationRow } from './annotations.js';
export type { AnnotationRow } from './annotations.js';
export { WORKLOAD_KINDS } from './kinds.js';

export type { DocReport, ReportNote } from './report.js';

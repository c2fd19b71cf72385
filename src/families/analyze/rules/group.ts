import type { Rule } from '../finding.js';
import type { AnalysisIndex } from '../indexes.js';
import type { InputObject, Path } from '../objects.js';
import type { RepeatedKey } from '../read.js';

/** Reports a finding of `code` on `object`, at the line of `path` in it. */
export type Report = (code: string, object: InputObject, message: string, path?: Path) => void;

export interface AnalysisContext {
  readonly index: AnalysisIndex;
  readonly repeatedKeys: readonly RepeatedKey[];
  /** Reports a repeated key, which may sit in no object. */
  readonly reportAt: (code: string, resource: InputObject | undefined, file: string, line: number, message: string) => void;
}

/** A group of rules: their definitions (data) and the one pass that finds them. */
export interface RuleGroup {
  readonly rules: readonly Rule[];
  check(ctx: AnalysisContext, report: Report): void;
}

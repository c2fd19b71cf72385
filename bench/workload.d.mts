/** Workload `i` of the inject benchmark, as one YAML document starting with `---`. */
export declare function workload(i: number): string;
/** Workload `i` of the varied inject benchmark (seeded): one or more YAML documents, each starting with `---`. */
export declare function variedWorkload(i: number): string;

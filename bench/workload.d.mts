/** Workload `i` of the inject benchmark, as one YAML document starting with `---`. */
export declare function workload(i: number): string;

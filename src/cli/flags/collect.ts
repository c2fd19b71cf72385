/** commander's accumulator for a repeatable flag: each occurrence appends its value. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

// Durations are parsed in core/parse with the other Go-compatible parsers.
export { parseGoDuration, formatGoDuration, normalizeGoDuration } from '../parse/goDuration.js';

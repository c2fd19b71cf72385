// Resource quantities are parsed in core/parse with the other Go-compatible parsers.
export * from '../parse/quantity.js';

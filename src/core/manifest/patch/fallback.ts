/*
 * Why a document is written by the yaml library instead of as line patches: each a shape a line
 * patch cannot express safely. The library still keeps comments, key order, quoting and anchors.
 */
export const FALLBACK = {
  anchorUsedAsItemOrKey: 'an edited anchor is used as a sequence item or key',
  nonScalarReplaced: 'a non-scalar value was replaced by a string',
  removedFromFlowMapping: 'removed from a flow mapping',
  removedKeySharesLine: 'a removed key shares its line',
  removedItemSharesLine: 'a removed item shares its line',
  replacedValueSpansLines: 'a replaced value spans lines',
  addedBeforeKeySharingLine: 'added before a key that shares its line',
  addedToFlowMapping: 'added to a flow mapping',
  addedToFlowMappingWithoutKey: 'added to a flow mapping without a key',
  addedToMappingWithoutBlockLayout: 'added to a mapping without a block layout',
  addedToFlowSequence: 'added to a flow sequence',
  addedToFlowSequenceWithoutKey: 'added to a flow sequence without a key',
  addedToSequenceWithoutBlockLayout: 'added to a sequence without a block layout',
  aliasWithoutKeyReplaced: 'an alias without a key was replaced',
  editsOverlap: 'edits overlap',
} as const;

export type FallbackReason = (typeof FALLBACK)[keyof typeof FALLBACK] | `"${string}" had no value`;

/** `key:` with no value was given one: the library writes it. */
export const hadNoValue = (key: string): FallbackReason => `"${key}" had no value`;

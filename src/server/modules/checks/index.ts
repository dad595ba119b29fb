/**
 * The automated checks' public entry: what other modules use of them. A card's submission runs
 * them and staff read their results (cards); an uploaded photo is hashed as it streams, within
 * the memory and decoders handed out (files).
 */
export { Allowance } from './allowance';
export { checksOf, runSubmissionChecks } from './checks';
export { hashImageFile, type ImageHasher, startImageHash } from './image-hash';

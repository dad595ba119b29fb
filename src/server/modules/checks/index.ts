/**
 * The automated checks' public entry: what other modules use of them. A card's submission runs
 * them and staff read their results (cards); an uploaded photo is hashed as it streams, within
 * the memory and decoders handed out, and an identity document is decoded by the same decoders
 * (files).
 */
export { Allowance } from './allowance';
export { checksOf, runSubmissionChecks } from './checks';
export {
  DECODING,
  hashImageFile,
  type ImageHasher,
  MAX_PIXELS,
  startImageHash,
  withDecoder,
} from './image-hash';

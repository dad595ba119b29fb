/** Notifications' public entry: the weekly digest's job (main.ts). */
export { DIGEST_PERIOD_MS, sendWeeklyDigests } from './digests';

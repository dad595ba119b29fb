/** Privacy's public entry: the jobs that build exports and settle deletions (main.ts). */
export { buildExports, privacyUpkeep } from './jobs';

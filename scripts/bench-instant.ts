/**
 * npm run bench:instant: only `npm run bench`'s issue 41 section (scripts/lib/instant-onchain.ts),
 * 20 eligible cards from submission to confirmed on a local chain; exits 1 when it fails.
 */
import { benchInstantOnchain } from './lib/instant-onchain';

const { ok } = await benchInstantOnchain();
process.exit(ok ? 0 : 1);

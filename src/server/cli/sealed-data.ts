import { resealCardCodes } from '../common/card-code';
import type { Keyring } from '../common/encryption';
import type { Db } from '../db/client';
import { sealTwoFactorSecrets } from '../modules/auth/two-factor';

/**
 * Everything sealed with the data key (decision 074), each re-sealed under the current key by a
 * function that may be interrupted and run again.
 */
export const SEALED_DATA: {
  name: string;
  reseal: (db: Db, keyring: Keyring) => Promise<number>;
}[] = [
  { name: 'two-factor secrets', reseal: (db, keyring) => sealTwoFactorSecrets(db, keyring) },
  { name: 'card codes', reseal: resealCardCodes },
];

/** Re-seals everything under the keyring's current key; answers the count of each kind. */
export async function rotateDataKeys(db: Db, keyring: Keyring) {
  const counts: Record<string, number> = {};
  for (const data of SEALED_DATA) counts[data.name] = await data.reseal(db, keyring);
  return counts;
}

import type { Db } from '../db/client';
import type { Keyring } from '../encryption';
import { sealTwoFactorSecrets } from '../modules/auth';
import { resealCardCodes } from '../modules/cards';
import { resealDocuments } from '../modules/files';
import { resealWebhookSecrets } from '../modules/webhooks';
import type { ObjectStorage } from '../storage/object-storage';

/**
 * Everything sealed with the data key (decision 074), each re-sealed under the current key by a
 * function that may be interrupted and run again.
 */
export const SEALED_DATA: {
  name: string;
  reseal: (db: Db, keyring: Keyring, storage: ObjectStorage) => Promise<number>;
}[] = [
  { name: 'two-factor secrets', reseal: (db, keyring) => sealTwoFactorSecrets(db, keyring) },
  { name: 'card codes', reseal: (db, keyring) => resealCardCodes(db, keyring) },
  {
    name: 'identity documents',
    reseal: (db, keyring, storage) => resealDocuments(db, storage, keyring),
  },
  { name: 'webhook signing secrets', reseal: (db, keyring) => resealWebhookSecrets(db, keyring) },
];

/** Re-seals everything under the keyring's current key; answers the count of each kind. */
export async function rotateDataKeys(db: Db, keyring: Keyring, storage: ObjectStorage) {
  const counts: Record<string, number> = {};
  for (const data of SEALED_DATA) counts[data.name] = await data.reseal(db, keyring, storage);
  return counts;
}

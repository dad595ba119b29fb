import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import { type Keyring, openText, sealedTextKeyId, sealText } from '../../encryption';
import { SECRET_PURPOSE } from './commands';

const keyIdOf = (column: typeof webhookEndpoints.secret | typeof webhookEndpoints.previousSecret) =>
  sql`split_part(${column}, '.', 2)`;

function reseal(keyring: Keyring, sealed: string) {
  const keyId = sealedTextKeyId(sealed);
  if (keyId === null || !keyring.byId.has(keyId)) {
    throw new Error(
      `A webhook signing secret is sealed under key ${keyId ?? '(none)'}, which is not configured: add it to DATA_ENCRYPTION_PREVIOUS_KEYS`,
    );
  }
  return sealText(keyring, SECRET_PURPOSE, openText(keyring, SECRET_PURPOSE, sealed));
}

/**
 * `npm run keys:rotate` (decision 074): every endpoint's signing secret, and the previous one a
 * rotation keeps for 24 hours, re-sealed under the keyring's current key, a batch at a time. A
 * row changed meanwhile (a rotation) is left for the next pass, which finds it if it still needs
 * it; so the run may be interrupted and run again. Answers how many endpoints were re-sealed.
 */
export async function resealWebhookSecrets(db: Db, keyring: Keyring, batch = 200) {
  let done = 0;
  const current = keyring.current.id;
  for (;;) {
    const rows = await db
      .select({
        id: webhookEndpoints.id,
        secret: webhookEndpoints.secret,
        previousSecret: webhookEndpoints.previousSecret,
      })
      .from(webhookEndpoints)
      .where(
        or(
          ne(keyIdOf(webhookEndpoints.secret), current),
          and(
            isNotNull(webhookEndpoints.previousSecret),
            ne(keyIdOf(webhookEndpoints.previousSecret), current),
          ),
        ),
      )
      .limit(batch);
    if (rows.length === 0) return done;
    for (const row of rows) {
      await db
        .update(webhookEndpoints)
        .set({
          secret: reseal(keyring, row.secret),
          previousSecret: row.previousSecret ? reseal(keyring, row.previousSecret) : null,
        })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.secret, row.secret)));
      done += 1;
    }
  }
}

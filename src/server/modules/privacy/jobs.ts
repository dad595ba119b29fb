import type { FastifyInstance } from 'fastify';
import { OneRunAtATime } from '../../common/one-run';
import { loggableError } from '../../plugins/errors';
import { exportKey } from '../../storage/object-storage';
import {
  claimExport,
  eraseSettledAccounts,
  expireExports,
  exportFailed,
  exportReady,
} from './commands';
import { writeExport } from './export-zip';

/** Per app: its build loop's runs. */
const building = new WeakMap<FastifyInstance, OneRunAtATime>();

/**
 * Builds every export waiting, one at a time, on this instance: started when a customer asks
 * (so the ZIP is usually ready within seconds) and every minute (an export whose instance
 * stopped mid-build is taken up again). A call while a loop runs joins it, and makes it look
 * once more before it ends, so an export asked for at its last moment is not left waiting.
 */
export function buildExports(app: FastifyInstance): Promise<number> {
  let runs = building.get(app);
  if (!runs) {
    runs = new OneRunAtATime(() => buildWaiting(app));
    building.set(app, runs);
  }
  return runs.run();
}

/** Builds the exports waiting, one after another; answers how many it took up. */
async function buildWaiting(app: FastifyInstance) {
  for (let taken = 0; ; taken++) {
    const next = await app.run(async (context) => ({
      value: await claimExport(context),
      changed: [],
    }));
    if (!next) return taken;
    try {
      const size = await writeExport(app, next.userId, exportKey(next.id));
      await app.run((context) => exportReady(context, next, size));
      app.mail.kick();
    } catch (error) {
      app.log.warn({ err: loggableError(error), export: next.id }, 'data export failed');
      await app.run((context) => exportFailed(context, next));
    }
  }
}

/**
 * Once a minute across instances: exports whose link lapsed lose their file, and accounts whose
 * deletion waited for their cards to settle are erased.
 */
export async function privacyUpkeep(app: FastifyInstance) {
  const expired = await app.run(expireExports);
  const erased = await app.run(eraseSettledAccounts);
  if (erased > 0) app.mail.kick();
  if (expired + erased > 0) app.log.info({ expired, erased }, 'privacy upkeep');
}

import type { AppConfig, PayoutFaultPoint } from '../../config';

/**
 * The fault tests' hook (decision 152): when PAYOUT_FAULT_POINT names `point`, the process kills
 * itself with SIGKILL there, as a power cut or the OOM killer would (no handler runs, nothing is
 * flushed or committed). Inert unless set; the config refuses it when NODE_ENV=production.
 */
export function faultAt(config: AppConfig, point: PayoutFaultPoint) {
  if (config.payouts.faultPoint !== point || config.env === 'production') return;
  process.kill(process.pid, 'SIGKILL');
}

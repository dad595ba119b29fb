/**
 * The sessions module's public entry: what other modules, app.ts (for the session plugin) and the
 * operator commands use of it.
 */
export {
  createSession,
  deleteAccountSessions,
  deleteExpiredSessions,
  endSessions,
  markSessionFresh,
  renewSessions,
} from './commands';
export { customerSessions, readSessions, reauthAtOf } from './queries';
export { default as sessionRoutes } from './routes';

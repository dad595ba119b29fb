/** The Analytics tab's public entry: the job that folds its rollups (main.ts). */
export { foldAnalytics } from './jobs';

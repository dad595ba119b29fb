/** Chat's public entry: a customer's conversation, read once before the server listens (warm-up). */
export { conversation } from './queries';

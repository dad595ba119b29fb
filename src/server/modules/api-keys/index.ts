/**
 * API keys' public entry (issue 42, decision 125): the partner API (`partner`) guards its routes
 * with a key and its scopes, and limits each key on its own.
 */
export { apiKeyOf, perKeyLimit, requireApiKey } from './guard';
export { default as apiKeyRoutes } from './routes';

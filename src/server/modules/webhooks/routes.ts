import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_KEY_LEVEL,
  VERIFICATION_REQUIRED,
  VERIFICATION_REQUIRED_MESSAGE,
} from '../../../shared/partner-api';
import { HttpError } from '../../common/http-error';
import {
  accountOf,
  requireActiveAccount,
  requireCustomer,
  requireRecentPassword,
} from '../../plugins/auth';
import { webhookEndpointRoutes } from './endpoint-routes';
import { verificationLevelOf } from './queries';

/** Webhooks are for the sellers who may hold API keys (level 2), as the keys are (issue 42). */
async function requirePartnerLevel(request: FastifyRequest) {
  const level = await verificationLevelOf(request.server.db, accountOf(request).id);
  if (level < API_KEY_LEVEL) {
    throw new HttpError(403, VERIFICATION_REQUIRED_MESSAGE, undefined, {
      code: VERIFICATION_REQUIRED,
    });
  }
}

/**
 * A seller's webhook endpoints in the profile (cookie session): the same commands and reads as
 * `/api/v1/webhook-endpoints`, so the web app manages what a key with `webhooks:manage` does.
 * Registering an endpoint, or a new secret, sends the seller's card data somewhere new: a fresh
 * password, as for an API key (decision 146).
 */
export default async function webhookRoutes(app: FastifyInstance) {
  const write = [requireCustomer, requireActiveAccount, requirePartnerLevel];
  webhookEndpointRoutes(app, {
    prefix: '/api/webhook-endpoints',
    read: requireCustomer,
    remove: requireCustomer,
    send: write,
    secret: [...write, requireRecentPassword],
  });
}

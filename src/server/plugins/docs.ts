import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from './session';

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD /path` of every API route registered. */
    apiRoutes: string[];
  }
}

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/** The routes of the API (what the document must cover), as `METHOD /path`. */
export const isApiRoute = (url: string) =>
  url.startsWith('/api/') || url.startsWith('/objects/') || url === '/healthz' || url === '/readyz';

/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas as they are registered, at
 * /api/openapi.json, and Swagger UI at /api/docs. Registered before the routes, so that it sees
 * every one of them.
 */
export async function registerApiDocs(app: FastifyInstance) {
  // Every API route as registered: a test checks each one is in the document.
  const routes: string[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    if (isApiRoute(route.url)) for (const m of methods) routes.push(`${m} ${route.url}`);
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cardbridge API',
        version: '1',
        description:
          'Sell unused gift cards. Signed-in calls carry the session cookie set by sign-in; ' +
          'errors are `{ message, errors? }` (PRODUCT.md).',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
    },
    transform: createJsonSchemaTransform({
      // The documentation itself and the browser app are not part of the API.
      skipList: [OPENAPI_PATH, `${DOCS_PREFIX}`, `${DOCS_PREFIX}/*`, '/*', '/'],
    }),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: true,
    uiConfig: { url: OPENAPI_PATH, validatorUrl: null } as never,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

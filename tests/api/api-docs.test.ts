import { describe, expect, it } from 'vitest';
import { setUpTestApp } from './helpers';

const t = setUpTestApp();

/** Fastify's `/a/:id` and `/objects/*` as OpenAPI writes them. */
const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and has every API route with its method', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
        ([path, operations]) =>
          Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const routes = t.app.apiRoutes.filter(
      (r) => !r.includes('/api/docs') && !r.includes('/api/openapi.json'),
    );
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((route) => {
      const [method, url] = route.split(' ') as [string, string];
      return !documented.has(`${method} ${toOpenApiPath(url)}`);
    });
    expect(missing).toEqual([]);
  });

  it('describes bodies and answers from the zod schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const signup = document.paths['/api/signup'].post;
    const body = signup.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(
      Object.keys(signup.responses['200'].content['application/json'].schema.properties),
    ).toEqual(expect.arrayContaining(['id', 'email', 'isAdmin']));
    const list = document.paths['/api/admin/transactions'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['search', 'status', 'cursor', 'limit']),
    );
  });

  it('serves the reference page at /api/docs', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
  });
});

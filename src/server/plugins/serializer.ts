import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Answers are written by serialisers compiled once per route from its zod response schema
 * (through JSON Schema and fast-json-stringify), not by validating and stringifying each answer:
 * only the declared fields are ever written, so a column a route did not declare (a password
 * hash) cannot leak, and a list of twenty cards costs a fraction of the time.
 */
export function registerSerializer(app: FastifyInstance) {
  app.setSerializerCompiler(({ schema }) => compileSerializer(schema as z.ZodType));
}

/** The serialiser of a zod schema, as routes get theirs (the polled card lists write items). */
export function compileSerializer(schema: z.ZodType) {
  return fastJson(
    z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'any',
    }) as Parameters<typeof fastJson>[0],
  );
}

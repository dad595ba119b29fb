import type { FastifyInstance } from 'fastify';
import { HttpError } from '../common/http-error';

/** C0 control characters and DEL: never in a single-line field (a name, an email, an amount). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const SINGLE_LINE = /[\u0000-\u001F\u007F]/;
/** Free text may hold tabs and line breaks, nothing else of the kind (NUL above all). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Half of a UTF-16 pair on its own: not text, and PostgreSQL's json refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** The fields that are free text (docs/decisions/020). */
const FREE_TEXT = new Set(['message', 'notes', 'adminNotes', 'comment', 'reason', 'rejectionNote']);

const label = (field: string) => {
  const last = field
    .split('.')
    .at(-1)!
    .replace(/\[\d+\]$/, '');
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The path of the first string under `value` holding a character it may not, if any. */
function findControl(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') {
    const key = path
      .split('.')
      .at(-1)!
      .replace(/\[\d+\]$/, '');
    const refused = FREE_TEXT.has(key) ? MULTI_LINE : SINGLE_LINE;
    return refused.test(value) || LONE_SURROGATE.test(value) ? path : null;
  }
  if (depth > 8 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControl(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = findControl(item, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Deeper than any body the API takes (its deepest is a few levels): refused before validation. */
const MAX_DEPTH = 32;

/**
 * Whether `value` nests arrays or objects deeper than MAX_DEPTH, walked without recursion: a body
 * such as `{"token":{"length":[[[…10,000 deep…]]]}}` made a validation message stringify itself
 * until the stack ran out (a 500 the fuzzer found).
 */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Text reaches the app through bodies, query strings and path parameters: each is checked here,
 * once for every route, before validation. NUL cannot be stored by PostgreSQL at all, and other
 * control characters have no business in a name or an account number; free text keeps its line
 * breaks and tabs. The answer is a 400 naming the field.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    if (tooDeep(request.body)) {
      return done(new HttpError(400, 'The request body is nested too deeply'));
    }
    for (const part of [request.params, request.query, request.body]) {
      const field = findControl(part, '');
      if (field) {
        const message = `${label(field)} contains a character that is not allowed`;
        return done(new HttpError(400, message, { [field]: message }));
      }
    }
    done();
  });
}

/**
 * Generators of malformed input for the fuzzer: strings, numbers, ids, cursors, JSON bodies
 * (valid, mutated and broken), query strings, headers, content types and multipart bodies.
 * Every choice goes through an `Rng`, so a seed replays the same inputs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Rng } from './rng';

// ---------------------------------------------------------------------------------------------
// JSON that JSON.stringify cannot write: NaN, 1e309, duplicate keys, __proto__ keys.

/** JSON text inserted verbatim (NaN, 1e309, deep nesting): usually makes the body invalid. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object as a list of entries, so keys may repeat and `__proto__` is just a key. */
export class JsonObject {
  constructor(public entries: [string, JsonLike][] = []) {}
  static from(value: Record<string, JsonLike>) {
    return new JsonObject(Object.entries(value));
  }
  get(key: string) {
    return this.entries.find(([k]) => k === key)?.[1];
  }
  set(key: string, value: JsonLike) {
    const at = this.entries.findIndex(([k]) => k === key);
    if (at >= 0) this.entries[at] = [key, value];
    else this.entries.push([key, value]);
    return this;
  }
  delete(key: string) {
    this.entries = this.entries.filter(([k]) => k !== key);
    return this;
  }
}

export type JsonLike = null | boolean | number | string | RawJson | JsonObject | JsonLike[];

export function toJsonText(value: JsonLike): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Strings

const CONTROL_CHARACTERS = [
  ...Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)),
  '\u007f',
];

export const UNICODE_ODDITIES = [
  '\u202e', // right-to-left override
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\ufeff', // byte-order mark
  '\u2028', // line separator
  '\u2029', // paragraph separator
  '\u0085', // NEL, a C1 control
  '\u009b', // CSI, a C1 control
  '\u00a0', // no-break space
  '\u3000', // ideographic space
  '\u180e', // Mongolian vowel separator
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\ud83d\ude00x\ud83d', // emoji then a broken pair
  '\uffff',
  '\ufffe',
  '\u{10ffff}',
  '\u{e0041}', // tag character
  '😀',
  '👨‍👩‍👧‍👦',
  'e\u0301', // combining accent
  'Z̷̢̛a̸̡l̶̨g̴̢o̵̧', // zalgo
  'Ａｍａｚｏｎ', // full-width
  'İ', // lower-cases to two code points
  'ß',
  'ﬃ',
  '١٠٠', // Arabic-Indic digits
  '𝟏𝟎𝟎', // mathematical digits
  '१००', // Devanagari digits
  'Ⅻ',
  '\u0130\u0131',
  'עברית',
  'العربية',
  '中文字符',
  '\u0000\ufeff\u200b',
];

export const NUMERIC_STRINGS = [
  '0',
  '-0',
  '1',
  '-1',
  '25',
  '24.99',
  '100',
  '100.00',
  '100.001',
  '12.345',
  ' 100 ',
  '+100',
  '1e3',
  '1E2',
  '1e309',
  '-1e309',
  '1e-7',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '0x64',
  '0b11',
  '0o17',
  '1_000',
  '1,000',
  '1.000,00',
  '.5',
  '5.',
  '00100',
  '99999999.99',
  '100000000',
  '100000000.00',
  '9'.repeat(40),
  `0.${'0'.repeat(30)}1`,
  '١٠٠',
  '１００',
  '100\u0000',
  '100abc',
  '$100',
  '100 USD',
  '--1',
  '',
];

/** Words JavaScript gives a meaning of its own, sent where a string is expected. */
const JS_NAMES = ['null', 'undefined', 'true', '[object Object]', '__proto__', 'constructor'];

export const INJECTION_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '\\',
  '\\\\',
  '%',
  '%%',
  '_',
  '%_\\',
  "'",
  '"',
  '`',
  ['$', '{7*7}'].join(''),
  '{{7*7}}',
  '#{7*7}',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/x.png',
  'https://evil.example/x.png',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/objects/cards/../../../etc/passwd',
  '/objects/cards/%2e%2e/%2e%2e/x.jpg',
  '/objects/chat/../cards/x.jpg',
  '/etc/passwd',
  ...JS_NAMES,
  'prototype',
  'toString',
  'hasOwnProperty',
  '*',
  '$where',
  '{"$gt":""}',
  '%00',
  '%0d%0aSet-Cookie: x=1',
  '\r\nSet-Cookie: x=1',
  'A'.repeat(73),
];

export const EMAIL_STRINGS = [
  'a@b',
  '@',
  'a@',
  '@b.co',
  'a@@b.co',
  'a@b..co',
  '.a@b.co',
  'a.@b.co',
  'A@EXAMPLE.COM',
  ' a@b.co ',
  'a@b.co\u0000',
  'a@b.co\nBcc: x@y.z',
  'a@b.co,c@d.co',
  '"quoted"@b.co',
  'a+tag@b.co',
  "o'brien@b.co",
  `${'a'.repeat(64)}@b.co`,
  `${'a'.repeat(250)}@b.co`,
  `a@${'b'.repeat(63)}.co`,
  `a@${'b.'.repeat(130)}co`,
  'İ@example.com',
  'ß@example.com',
  'a@xn--80ak6aa92e.com',
  'a@[127.0.0.1]',
  'a@localhost',
  'a@b.c',
  'a@b.co ',
  'a@b.co\u200b',
];

const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A string of random code points (any plane, surrogates and controls included). */
export function randomUnicode(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const range = rng.weighted([
      [4, [0x20, 0x7e]],
      [2, [0x00, 0x1f]],
      [2, [0x80, 0x7ff]],
      [2, [0x800, 0xffff]],
      [1, [0x10000, 0x10ffff]],
    ] as const);
    out += String.fromCodePoint(rng.int(range[0], range[1]));
  }
  return out;
}

export function asciiWord(rng: Rng, length = rng.int(1, 12)): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ASCII_LETTERS[rng.int(0, ASCII_LETTERS.length - 1)];
  return out;
}

/** The size of a "huge" string: mostly past every field's limit, rarely past the body limit. */
export function hugeLength(rng: Rng, allowOverBodyLimit: boolean): number {
  return rng.weighted([
    [5, rng.int(101, 300)],
    [5, rng.int(2_001, 6_000)],
    [3, rng.int(10_000, 70_000)],
    [1, 300_000],
    [allowOverBodyLimit ? 0.3 : 0, 1_100_000],
  ]);
}

export interface GenOptions {
  /** Allow bodies over the 1 MiB body limit and 10 MB uploads (slow: rare in the test). */
  big: boolean;
}

/** A string meant to break something: controls, unicode oddities, huge, numeric, injection. */
export function evilString(rng: Rng, options: GenOptions, base = 'abc'): string {
  const kind = rng.weighted([
    [5, 'control'],
    [4, 'unicode'],
    [3, 'huge'],
    [3, 'numeric'],
    [3, 'injection'],
    [2, 'email'],
    [2, 'empty'],
    [2, 'random'],
    [1, 'mixed'],
  ] as const);
  switch (kind) {
    case 'control': {
      const c = rng.pick(CONTROL_CHARACTERS);
      const at = rng.int(0, base.length);
      return rng.chance(0.2) ? c : `${base.slice(0, at)}${c}${base.slice(at)}`;
    }
    case 'unicode': {
      const odd = rng.pick(UNICODE_ODDITIES);
      return rng.chance(0.5) ? odd : `${base}${odd}${base}`;
    }
    case 'huge': {
      const unit = rng.pick(['a', ' ', '😀', 'é', '\u0000', 'ab\n', '%', '9']);
      return unit.repeat(Math.ceil(hugeLength(rng, options.big) / unit.length));
    }
    case 'numeric':
      return rng.pick(NUMERIC_STRINGS);
    case 'injection':
      return rng.pick(INJECTION_STRINGS);
    case 'email':
      return rng.pick(EMAIL_STRINGS);
    case 'empty':
      return rng.pick(['', ' ', '   ', '\t', '\n', '\u00a0', '\u3000', '\u200b', '\ufeff']);
    case 'random':
      return randomUnicode(rng, rng.int(1, 60));
    case 'mixed':
      return `${rng.pick(INJECTION_STRINGS)}${rng.pick(UNICODE_ODDITIES)}${rng.pick(CONTROL_CHARACTERS)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers and other JSON values

export function evilNumber(rng: Rng): JsonLike {
  return rng.pick<JsonLike>([
    0,
    -1,
    1,
    1.5,
    -0.01,
    0.1 + 0.2,
    24.999,
    25,
    100,
    99999999.99,
    100000000,
    1e21,
    -1e21,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 31,
    -(2 ** 31) - 1,
    new RawJson('-0'),
    new RawJson('1e309'),
    new RawJson('-1e309'),
    new RawJson('1e-400'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('100.0000000000000000000001'),
    new RawJson('NaN'),
    new RawJson('Infinity'),
    new RawJson('-Infinity'),
    new RawJson('0x10'),
    new RawJson('01'),
    new RawJson('.5'),
    new RawJson('1.'),
    new RawJson('+1'),
  ]);
}

/** Arrays or objects nested `depth` deep. */
export function deepNesting(depth: number, kind: 'array' | 'object'): RawJson {
  return kind === 'array'
    ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

/** Any JSON value of the wrong kind: strings, numbers, booleans, arrays, objects, nesting. */
export function evilValue(rng: Rng, options: GenOptions, depth = 0): JsonLike {
  const kind = rng.weighted([
    [8, 'string'],
    [4, 'number'],
    [2, 'literal'],
    [depth < 2 ? 2 : 0, 'array'],
    [depth < 2 ? 2 : 0, 'object'],
    [1, 'deep'],
    [0.5, 'wide'],
  ] as const);
  switch (kind) {
    case 'string':
      return evilString(rng, options);
    case 'number':
      return evilNumber(rng);
    case 'literal':
      return rng.pick<JsonLike>([null, true, false]);
    case 'array':
      return Array.from({ length: rng.int(0, 3) }, () => evilValue(rng, options, depth + 1));
    case 'object':
      return new JsonObject(
        Array.from({ length: rng.int(0, 3) }, () => [
          rng.pick(['a', '$gt', '__proto__', 'constructor', '', 'toString', 'length', '0']),
          evilValue(rng, options, depth + 1),
        ]),
      );
    case 'deep':
      return deepNesting(
        rng.pick([10, 100, 1_000, 10_000, options.big ? 100_000 : 5_000]),
        rng.pick(['array', 'object']),
      );
    case 'wide':
      return Array.from({ length: rng.pick([11, 100, 5_000]) }, (_, i) =>
        rng.chance(0.5) ? i : 'x',
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** Keys a client has no business sending: privileges, ownership, server-computed values. */
export const PRIVILEGED_EXTRAS: [string, (rng: Rng, ids: string[]) => JsonLike][] = [
  ['userId', (rng, ids) => rng.pick(ids)],
  ['id', (rng, ids) => rng.pick(ids)],
  ['isAdmin', () => true],
  ['role', () => 'admin'],
  ['status', () => 'completed'],
  ['paymentStatus', () => 'confirmed'],
  ['paymentAmount', () => '99999.99'],
  ['payoutRate', () => '9.9999'],
  ['expectedPayout', () => '99999999.99'],
  ['senderType', () => 'admin'],
  ['senderName', () => 'Support Team'],
  ['ownerUserId', (rng, ids) => rng.pick(ids)],
  ['transactionId', (rng, ids) => rng.pick(ids)],
  ['createdAt', () => '1970-01-01T00:00:00Z'],
  ['deletedAt', () => null],
  ['validationStatus', () => 'passed'],
  ['isRead', () => true],
];

/** One change to a valid body: a field of the wrong type, missing, extra, duplicated... */
export function mutateBody(
  rng: Rng,
  options: GenOptions,
  body: JsonObject,
  ids: string[],
): { body: JsonObject; label: string } {
  const fields = body.entries.map(([k]) => k);
  const field = fields.length > 0 ? rng.pick(fields) : 'x';
  const kind = rng.weighted([
    [6, 'evil-string'],
    [4, 'wrong-type'],
    [3, 'missing'],
    [3, 'privileged-extra'],
    [2, 'extra'],
    [2, 'swap-string-number'],
    [1, 'duplicate-key'],
    [1, 'wrapped'],
    [1, 'all-null'],
    [1, 'key-case'],
    [2, 'many'],
  ] as const);
  const copy = new JsonObject(body.entries.map(([k, v]) => [k, v]));
  switch (kind) {
    case 'evil-string': {
      const current = copy.get(field);
      copy.set(field, evilString(rng, options, typeof current === 'string' ? current : 'abc'));
      return { body: copy, label: `${field}=evil-string` };
    }
    case 'wrong-type':
      copy.set(field, evilValue(rng, options));
      return { body: copy, label: `${field}=wrong-type` };
    case 'missing':
      copy.delete(field);
      return { body: copy, label: `${field} missing` };
    case 'privileged-extra': {
      const [key, value] = rng.pick(PRIVILEGED_EXTRAS);
      copy.entries.push([key, value(rng, ids)]);
      return { body: copy, label: `extra ${key}` };
    }
    case 'extra': {
      const key = rng.pick([
        '__proto__',
        'constructor',
        '',
        'a.b',
        '$set',
        asciiWord(rng),
        randomUnicode(rng, 3),
      ]);
      copy.entries.push([
        key,
        key === 'constructor' ? JsonObject.from({ prototype: { isAdmin: true } as never }) : 1,
      ]);
      if (key === '__proto__') copy.entries.push([key, JsonObject.from({ isAdmin: true })]);
      return { body: copy, label: `extra key ${JSON.stringify(key.slice(0, 20))}` };
    }
    case 'swap-string-number': {
      const current = copy.get(field);
      if (typeof current === 'string') {
        const n = Number(current);
        copy.set(field, Number.isFinite(n) && current.trim() !== '' ? n : evilNumber(rng));
      } else if (typeof current === 'number' || typeof current === 'boolean') {
        copy.set(field, String(current));
      } else {
        copy.set(field, rng.pick(NUMERIC_STRINGS));
      }
      return { body: copy, label: `${field} string<->number` };
    }
    case 'duplicate-key':
      copy.entries.push([field, evilValue(rng, options)]);
      return { body: copy, label: `${field} duplicated` };
    case 'wrapped': {
      const current = copy.get(field) ?? null;
      copy.set(field, rng.chance(0.5) ? [current] : JsonObject.from({ value: current }));
      return { body: copy, label: `${field} wrapped` };
    }
    case 'all-null':
      return { body: new JsonObject(fields.map((k) => [k, null])), label: 'all fields null' };
    case 'key-case':
      copy.entries = copy.entries.map(([k, v]) => [k === field ? k.toUpperCase() : k, v]);
      return { body: copy, label: `${field} key upper-cased` };
    case 'many': {
      for (const f of rng.sample(fields, rng.int(2, Math.max(2, fields.length)))) {
        copy.set(f, rng.chance(0.6) ? evilString(rng, options) : evilValue(rng, options));
      }
      return { body: copy, label: 'many fields evil' };
    }
  }
}

/** JSON text that does not parse, or parses to something that is not an object. */
export function brokenJson(
  rng: Rng,
  options: GenOptions,
): { text: string | Buffer; label: string } {
  const kind = rng.weighted([
    [6, 'syntax'],
    [3, 'not-object'],
    [2, 'prototype'],
    [1, 'huge'],
    [1, 'bytes'],
    [1, 'utf16'],
  ] as const);
  switch (kind) {
    case 'syntax':
      return {
        label: 'broken JSON',
        text: rng.pick([
          '{',
          '}',
          '{"a":',
          '{"a":1,}',
          '[1,2',
          "{'a':1}",
          '{a:1}',
          'nul',
          'tru',
          '{"a":1}}',
          '{"a":1}{"b":2}',
          '\ufeff{}',
          '{"a":"\\x00"}',
          '{"a":"\\u00"}',
          '{"a":"\\ud800\\u0000"}',
          '{"a":01}',
          '{"a":.5}',
          '{"a":NaN}',
          '{"a":Infinity}',
          '{"a":undefined}',
          '{"a":"b"\u0000}',
          '{"a":"line\nbreak"}',
          '{"email":"a@b.co","password":"x"} trailing',
          '{"a":1,"a":}',
          '{"a" 1}',
          '-',
          '/* comment */ {}',
          '{"a":1} // comment',
          ' ',
          '\n',
        ]),
      };
    case 'not-object':
      return {
        label: 'JSON that is not an object',
        text: rng.pick([
          'null',
          'true',
          '0',
          '-1',
          '1e309',
          '"string"',
          '[]',
          '[{}]',
          '[null]',
          '""',
          '{}',
        ]),
      };
    case 'prototype':
      return {
        label: 'prototype pollution',
        text: rng.pick([
          '{"__proto__":{"isAdmin":true}}',
          '{"constructor":{"prototype":{"isAdmin":true}}}',
          '{"a":{"__proto__":{"polluted":1}}}',
          '{"__proto__":null}',
          '[{"__proto__":{}}]',
        ]),
      };
    case 'huge':
      return {
        label: 'huge unterminated JSON',
        text: `{"a":"${'b'.repeat(rng.pick([10_000, 500_000, options.big ? 1_100_000 : 200_000]))}`,
      };
    case 'bytes':
      return { label: 'random bytes as JSON', text: rng.bytes(rng.int(1, 200)) };
    case 'utf16':
      return {
        label: 'JSON in UTF-16',
        text: Buffer.from('{"email":"a@b.co","password":"p"}', 'utf16le'),
      };
  }
}

export const ODD_JSON_CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/json; charset=',
  'application/json; charset="utf-8"',
  'application/json;;',
  'application/json; boundary=x',
  'APPLICATION/JSON',
  'Application/Json',
  ' application/json',
  'application/json, text/plain',
  'application/json\t',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/xml',
  'text/xml',
  'text/html',
  'application/ld+json',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/octet-stream',
  'application/csp-report',
  'image/png',
  '*/*',
  '',
  ';',
  'application/',
  '/json',
  'json',
  'a/b/c',
  `application/json; ${'x=y; '.repeat(200)}`,
];

// ---------------------------------------------------------------------------------------------
// Ids, cursors, query strings, URLs

/** Path ids: not uuids, almost uuids, huge, negative, encoded, and real ids of the wrong kind. */
export function badId(rng: Rng, realIds: string[]): string {
  const uuid = rng.uuid();
  const kind = rng.weighted([
    [4, 'literal'],
    [3, 'uuid-like'],
    [2, 'real'],
    [2, 'encoded'],
    [1, 'huge'],
    [1, 'unicode'],
  ] as const);
  switch (kind) {
    case 'literal':
      return rng.pick([
        'abc',
        '-1',
        '0',
        '1',
        '1e309',
        'NaN',
        ...JS_NAMES,
        '*',
        '.',
        '..',
        '~',
        '$',
        "'",
        '"',
        '%',
        '9'.repeat(20),
        '-9'.repeat(10),
        '0x1f',
        '1.5',
      ]);
    case 'uuid-like':
      return rng.pick([
        uuid,
        uuid.toUpperCase(),
        uuid.replaceAll('-', ''),
        `{${uuid}}`,
        `urn:uuid:${uuid}`,
        `${uuid} `,
        ` ${uuid}`,
        `${uuid}x`,
        uuid.slice(0, 35),
        `${uuid.slice(0, 14)}z${uuid.slice(15)}`,
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '00000000-0000-4000-8000-000000000000',
        `${uuid.slice(0, 14)}7${uuid.slice(15)}`,
        `${uuid},${uuid}`,
      ]);
    case 'real':
      return realIds.length > 0 ? rng.pick(realIds) : uuid;
    case 'encoded':
      return rng.pick([
        '%00',
        `${uuid}%00`,
        '%2e%2e',
        '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
        '%252e',
        '%20',
        '%0a',
        '%zz',
        '%',
        '%c0%ae',
        '%ff',
        '%E0%A4%A',
        'a%2Fb',
        encodeLoose(rng.pick(UNICODE_ODDITIES)),
        encodeLoose(`${uuid}\u0000`),
      ]);
    case 'huge':
      return rng.pick(['9', 'a', '-', '%41']).repeat(rng.pick([99, 100, 101, 500, 3000]));
    case 'unicode':
      return encodeLoose(rng.pick(UNICODE_ODDITIES));
  }
}

/**
 * encodeURIComponent that does not throw on a lone surrogate: it is written as the three bytes
 * UTF-8 would give it (%ED%A0%80), which is not valid UTF-8, which is the point.
 */
export function encodeLoose(value: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Timestamps for (timestamp, id) cursors: valid, out of range, impossible, odd offsets. */
export const CURSOR_STAMPS = [
  '2026-11-22 10:00:00+00',
  '2026-11-22 10:00:00.123456+00',
  '2026-11-22 10:00:00.1234567+00',
  '2026-11-22 10:00:00+99',
  '2026-11-22 10:00:00+16',
  '2026-11-22 10:00:00-15:59:59',
  '2026-11-22 10:00:00+15:59:60',
  '2026-11-22 10:00:00+14:60',
  '2026-11-22 10:00:00+00:00:99',
  '2026-11-22 10:00:00-99:99:99',
  '9999-12-31 23:59:59.999999+00',
  '9999-12-31 23:59:59.999999-15',
  '1970-01-01 00:00:00+15',
  '1970-01-01 00:00:00-15',
  '0001-01-01 00:00:00+00',
  '2026-02-29 10:00:00+00',
  '2024-02-29 10:00:00+00',
  '2026-13-01 10:00:00+00',
  '2026-00-10 10:00:00+00',
  '2026-11-00 10:00:00+00',
  '2026-11-22 24:00:00+00',
  '2026-11-22 23:59:60+00',
  '2026-11-22T10:00:00Z',
  '2026-11-22 10:00:00',
  'infinity',
  '-infinity',
  'epoch',
  'now',
  'allballs',
  '',
  '2026-11-22 10:00:00+00\u0000',
  '２０２６-11-22 10:00:00+00',
];

/** Every cursor shape once: each timestamp with an id, and garbage of every kind. */
export function cursorCorpus(): string[] {
  const id = '6b1d3a2e-0f4c-4e1a-9b7d-2c3e4f5a6b7c';
  return [
    ...CURSOR_STAMPS.map((stamp) => b64(JSON.stringify([stamp, id]))),
    b64(JSON.stringify(['2026-11-22 10:00:00+00', id, 'extra'])),
    b64(JSON.stringify(['2026-11-22 10:00:00+00', id.toUpperCase()])),
    b64(JSON.stringify(['2026-11-22 10:00:00+00'])),
    b64(JSON.stringify([1700000000000, id])),
    b64(JSON.stringify({ createdAt: '2026-11-22 10:00:00+00', id })),
    ...['"x"', '1', '1e309', 'null', '[]', '{}', '[1,2]', '[[[]]]', '{"__proto__":{}}', '['].map(
      b64,
    ),
    Buffer.from(JSON.stringify(['2026-11-22 10:00:00+00', id])).toString('base64'),
    b64(Buffer.from(JSON.stringify(['2026-11-22 10:00:00+00', id]), 'utf16le')),
    'garbage',
    '',
    '=',
    '%',
    'a'.repeat(200),
    'a'.repeat(201),
  ];
}

/** Values each known query parameter gets once: numbers for limits, text for the rest. */
export function queryCorpusValues(key: string): string[] {
  if (key === 'cursor') return cursorCorpus();
  if (key === 'limit') return NUMERIC_STRINGS;
  return [
    '',
    ' ',
    'all',
    'ALL',
    'pending ',
    'null',
    'a\u0000',
    '%',
    '_',
    '\\',
    "'",
    "' OR '1'='1",
    'İ',
    '😀',
    '\ud800',
    'x'.repeat(101),
    'x'.repeat(5_000),
    '00000000',
    '0000000-',
  ];
}

/** Staff-list cursors: random base64, base64 of garbage JSON, near-valid (timestamp, id) pairs. */
export function badCursor(rng: Rng, realCursors: string[]): string {
  const id = rng.uuid();
  const stamp = () => rng.pick(CURSOR_STAMPS);
  const kind = rng.weighted([
    [3, 'tuple'],
    [2, 'garbage-json'],
    [2, 'random'],
    [1, 'real-mutated'],
    [1, 'encoding'],
  ] as const);
  switch (kind) {
    case 'tuple':
      return b64(
        JSON.stringify(
          rng.pick([
            [stamp(), id],
            [stamp(), id.toUpperCase()],
            [
              stamp(),
              rng.pick(['', 'x', id.slice(1), `${id}0`, '00000000-0000-0000-0000-000000000000']),
            ],
            [stamp(), id, 'extra'],
            [stamp()],
            [id, stamp()],
            [1700000000000, id],
            [null, null],
            [[stamp()], [id]],
            { createdAt: stamp(), id },
          ]),
        ),
      );
    case 'garbage-json':
      return b64(
        rng.pick([
          '"x"',
          '1',
          '-1',
          '1e309',
          'null',
          'true',
          '[]',
          '[1,2]',
          '{}',
          '[[[[[[[[[[]]]]]]]]]]',
          '{"__proto__":{"a":1}}',
          '[',
          '"unterminated',
          `["${'a'.repeat(100)}"]`,
          JSON.stringify([stamp(), id]).slice(0, -2),
        ]),
      );
    case 'random':
      return rng.pick([
        b64(rng.bytes(rng.int(1, 120))),
        rng.bytes(rng.int(1, 100)).toString('base64'),
        asciiWord(rng, rng.int(1, 150)),
        'garbage',
        '=',
        '====',
        '%',
        '-_-_',
        'a'.repeat(200),
        'a'.repeat(201),
        '\u0000',
      ]);
    case 'real-mutated': {
      const real = realCursors.length > 0 ? rng.pick(realCursors) : b64(`["${stamp()}","${id}"]`);
      const at = rng.int(0, real.length - 1);
      return rng.pick([
        `${real.slice(0, at)}${rng.pick(['A', '_', '-', '+', '/', '='])}${real.slice(at + 1)}`,
        real.slice(0, at),
        `${real}${real}`,
        `${real}==`,
        real.toUpperCase(),
      ]);
    }
    case 'encoding':
      return rng.pick([
        b64(Buffer.from([0xff, 0xfe, 0x00, 0x5b])),
        b64(Buffer.from(JSON.stringify([stamp(), id]), 'utf16le')),
        Buffer.from(JSON.stringify([stamp(), id])).toString('base64'),
        b64(`\ufeff${JSON.stringify([stamp(), id])}`),
        b64(JSON.stringify([stamp(), id]).replace('"', '\u201c')),
      ]);
  }
}

/** Encodes a query value, or leaves percent-signs broken on purpose. */
export function queryValue(rng: Rng, value: string): string {
  if (rng.chance(0.85)) return encodeLoose(value);
  return rng.pick([
    value.replaceAll('&', '%26'),
    `${encodeLoose(value)}%`,
    `${encodeLoose(value)}%zz`,
    `%E0%A4%A${encodeLoose(value)}`,
    `${encodeLoose(value)}%00`,
    `%C0%80${encodeLoose(value)}`,
    `%ff%fe${encodeLoose(value)}`,
    encodeLoose(encodeLoose(value)),
    encodeLoose(value).replaceAll('%20', '+'),
  ]);
}

/** Query strings that break the parser or the schema: duplicates, arrays, pollution, junk. */
export function badQueryTail(rng: Rng): string {
  return rng.pick([
    '',
    '?',
    '??',
    '?&',
    '?&&&',
    '?=',
    '?=x',
    '?a',
    '?a=1&a=2',
    '?a[]=1',
    '?a[b]=1',
    '?__proto__=1',
    '?__proto__[isAdmin]=true',
    '?constructor[prototype][isAdmin]=true',
    '?hasOwnProperty=1',
    '?toString=1',
    '?%=1',
    '?%zz=1',
    '?a=%',
    '?a=%zz',
    '?a=%E0%A4%A',
    '?a=%00',
    '?%00=1',
    '?a=%C0%80',
    '?a=%ff',
    `?a=${'x'.repeat(rng.pick([100, 5_000, 15_000]))}`,
    `?${'a=1&'.repeat(rng.pick([100, 1_500]))}`,
    '?a=1;b=2',
    '?a=1#frag',
    '?a=%2526',
    '?a=+',
    '?a=%20%20',
    '?limit=1&limit=2',
    '?cursor=&cursor=',
    '?status=pending&status=completed',
    '?search=a&search=b',
  ]);
}

// ---------------------------------------------------------------------------------------------
// Headers

/**
 * What a header value can be once it has crossed the wire: Node's parser refuses control
 * characters, and bytes above 0x7f arrive as latin1 characters. Values that could never reach
 * the server through a socket are turned into ones that could.
 */
export function wireSafeHeader(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  let out = '';
  for (const byte of bytes) {
    if ((byte < 0x20 && byte !== 0x09) || byte === 0x7f) continue;
    out += String.fromCharCode(byte);
  }
  return out.trim();
}

export const FORGED_COOKIES = [
  'cb.sid=garbage',
  'cb.sid=',
  'cb.sid=%',
  'cb.sid=%zz',
  'cb.sid=%E0%A4%A',
  'cb.sid=a.b.c',
  'cb.sid=.',
  `cb.sid=${'a'.repeat(5000)}`,
  'cb.sid=s%3Aabc.def',
  'cb.sid="quoted"',
  'cb.sid=a; cb.sid=b',
  '=',
  ';;;',
  'cb.sid',
  '__proto__=1',
  'constructor=1',
];

/** A header that should change nothing, or be refused cleanly. */
export function oddHeaders(rng: Rng, cookie: string | undefined): [Record<string, string>, string] {
  const kind = rng.weighted([
    [3, 'cookie'],
    [2, 'origin'],
    [1, 'accept'],
    [1, 'if-none-match'],
    [1, 'forwarded'],
    [1, 'host'],
    [1, 'encoding'],
    [1, 'misc'],
  ] as const);
  switch (kind) {
    case 'cookie': {
      const forged = rng.pick([
        ...FORGED_COOKIES,
        cookie ? `${cookie}x` : 'cb.sid=x',
        cookie ? cookie.slice(0, -3) : 'cb.sid=y',
        cookie ? `${cookie}; cb.sid=garbage` : 'cb.sid=z',
        cookie ? `cb.sid=garbage; ${cookie}` : 'cb.sid=w',
        cookie ? cookie.replace(/\.[^.]*$/, '.forged') : 'cb.sid=v',
      ]);
      return [{ cookie: wireSafeHeader(forged) }, `cookie ${forged.slice(0, 40)}`];
    }
    case 'origin': {
      const origin = rng.pick([
        'null',
        'https://evil.example',
        'http://localhost:80',
        'http://localhost',
        'https://localhost',
        'garbage',
        '',
        'http://',
        'http://[::1',
        'file://',
      ]);
      const site = rng.pick([undefined, 'cross-site', 'same-site', 'same-origin', 'none', 'junk']);
      return [
        { origin: wireSafeHeader(origin), ...(site ? { 'sec-fetch-site': site } : {}) },
        `origin ${origin} / ${site}`,
      ];
    }
    case 'accept':
      return [
        {
          accept: rng.pick([
            'text/html',
            'application/xml',
            '*/*;q=0',
            'garbage',
            'application/json;q=abc',
            '',
          ]),
        },
        'accept',
      ];
    case 'if-none-match':
      return [
        { 'if-none-match': rng.pick(['*', '"x"', 'W/"x"', '', '"', 'a'.repeat(2000), '","']) },
        'if-none-match',
      ];
    case 'forwarded':
      return [
        {
          'x-forwarded-for': rng.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', '', '999.999.1.1']),
          'x-forwarded-proto': rng.pick(['https', 'gopher', '']),
          'x-forwarded-host': rng.pick(['evil.example', '', 'a b']),
        },
        'forwarded headers',
      ];
    case 'host':
      return [
        {
          host: wireSafeHeader(
            rng.pick(['', 'evil.example', 'localhost:99999', '[::1', 'a b', '%']),
          ),
        },
        'host',
      ];
    case 'encoding':
      return [
        {
          'content-encoding': rng.pick(['gzip', 'br', 'deflate', 'identity', 'x', 'gzip, gzip']),
          'accept-encoding': rng.pick(['gzip', 'br', '*', 'x;q=2']),
        },
        'content-encoding',
      ];
    case 'misc':
      return [
        {
          [rng.pick(['range', 'expect', 'authorization', 'x-http-method-override', 'te'])]:
            rng.pick(['bytes=0-1', '100-continue', 'Bearer x', 'DELETE', 'trailers', 'junk']),
        },
        'misc header',
      ];
  }
}

// ---------------------------------------------------------------------------------------------
// Multipart

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');
const FIXTURE_JPEG = readFileSync(path.join(fixtures, 'card-front.jpg'));
const FIXTURE_PNG = readFileSync(path.join(fixtures, 'card-back.png'));
const FIXTURE_PDF = readFileSync(path.join(fixtures, 'purchase-receipt.pdf'));

let tenMegabytes: Buffer | undefined;
/** A JPEG start and zeros, one byte over the upload limit: made once, when first asked for. */
const tenMegabytesPlusOne = () =>
  (tenMegabytes ??= Buffer.concat([
    FIXTURE_JPEG.subarray(0, 4),
    Buffer.alloc(10 * 1024 * 1024 - 3),
  ]));

/** File contents: real images, headers only, wrong types, empty, random. */
export function fileContent(
  rng: Rng,
  options: GenOptions,
  wantValid: boolean,
): { bytes: Buffer; type: string; label: string } {
  const valid = [
    { bytes: FIXTURE_JPEG, type: 'image/jpeg', label: 'jpeg' },
    { bytes: FIXTURE_PNG, type: 'image/png', label: 'png' },
    { bytes: FIXTURE_PDF, type: 'application/pdf', label: 'pdf' },
    {
      bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      type: 'image/gif',
      label: 'gif',
    },
    {
      bytes: Buffer.concat([Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 ', 'latin1'), rng.bytes(20)]),
      type: 'image/webp',
      label: 'webp',
    },
    {
      bytes: Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypheic', 'latin1'), rng.bytes(30)]),
      type: 'image/heic',
      label: 'heic',
    },
  ];
  if (wantValid) return rng.pick(valid.slice(0, 3));
  return rng.weighted<{ bytes: Buffer; type: string; label: string }>([
    [3, rng.pick(valid)],
    [2, { bytes: Buffer.alloc(0), type: 'image/jpeg', label: 'empty file' }],
    [1, { bytes: Buffer.from([0xff, 0xd8]), type: 'image/jpeg', label: 'two bytes of jpeg' }],
    [1, { bytes: FIXTURE_PNG.subarray(0, 8), type: 'image/png', label: 'png signature only' }],
    [1, { bytes: FIXTURE_JPEG.subarray(0, 15), type: 'image/jpeg', label: '15 bytes of jpeg' }],
    [1, { bytes: Buffer.from('hello'), type: 'image/jpeg', label: 'text as jpeg' }],
    [
      1,
      { bytes: Buffer.from('<html><script>alert(1)</script>'), type: 'text/html', label: 'html' },
    ],
    [
      1,
      {
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        type: 'image/svg+xml',
        label: 'svg',
      },
    ],
    [
      1,
      {
        bytes: Buffer.from('MZ\x90\x00\x03', 'latin1'),
        type: 'application/octet-stream',
        label: 'exe',
      },
    ],
    [1, { bytes: Buffer.from('PK\x03\x04', 'latin1'), type: 'application/zip', label: 'zip' }],
    [1, { bytes: Buffer.from('\x7fELF', 'latin1'), type: 'image/png', label: 'elf as png' }],
    [
      1,
      {
        bytes: Buffer.concat([
          FIXTURE_JPEG.subarray(0, 3),
          Buffer.from('<script>alert(1)</script>'),
        ]),
        type: 'text/html',
        label: 'jpeg/html polyglot',
      },
    ],
    [2, { bytes: rng.bytes(rng.int(1, 4000)), type: 'image/jpeg', label: 'random bytes' }],
    [
      options.big ? 0.4 : 0,
      {
        bytes: options.big ? tenMegabytesPlusOne() : Buffer.alloc(0),
        type: 'image/jpeg',
        label: '10 MB + 1 byte',
      },
    ],
  ]);
}

export interface MultipartPart {
  headers: string[];
  body: Buffer;
}

export function filePart(
  bytes: Buffer,
  filename = 'card.jpg',
  type = 'image/jpeg',
  field = 'file',
): MultipartPart {
  return {
    headers: [
      `Content-Disposition: form-data; name="${field}"; filename="${filename}"`,
      `Content-Type: ${type}`,
    ],
    body: bytes,
  };
}

export function fieldPart(name: string, value: string | Buffer): MultipartPart {
  return {
    headers: [`Content-Disposition: form-data; name="${name}"`],
    body: Buffer.from(value),
  };
}

export function encodeMultipart(
  boundary: string,
  parts: MultipartPart[],
  options: { eol?: string; preamble?: string; epilogue?: string; close?: boolean } = {},
): Buffer {
  const eol = options.eol ?? '\r\n';
  const chunks: Buffer[] = [];
  if (options.preamble) chunks.push(Buffer.from(`${options.preamble}${eol}`));
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}${eol}${part.headers.join(eol)}${eol}${eol}`));
    chunks.push(part.body);
    chunks.push(Buffer.from(eol));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--${eol}`));
  if (options.epilogue) chunks.push(Buffer.from(options.epilogue));
  return Buffer.concat(chunks);
}

export interface MultipartCase {
  payload: Buffer | string;
  contentType: string | undefined;
  label: string;
  /** A well-formed upload of an accepted file: the server should store it. */
  valid: boolean;
}

/** Part headers that are missing, misspelt, unquoted, folded, oversized or many. */
export const BAD_PART_HEADERS: string[][] = [
  [],
  ['Content-Type: image/jpeg'],
  ['Content-Disposition: form-data'],
  ['Content-Disposition: attachment; name="file"; filename="a.jpg"'],
  ['Content-Disposition: form-data; name=file; filename=a.jpg'],
  ['Content-Disposition: form-data; name="file; filename="a.jpg"'],
  ['Content-Disposition: form-data; name="file"; filename="a.jpg'],
  ['Content-Disposition form-data; name="file"; filename="a.jpg"'],
  ['Content-Disposition: form-data; name="file"; filename="a.jpg"', 'Content-Type'],
  [
    'Content-Disposition: form-data; name="file"; filename="a.jpg"',
    `X-Big: ${'a'.repeat(100_000)}`,
  ],
  ['Content-Disposition: form-data; name="file"; filename="a.jpg"', ' folded continuation'],
  [
    'Content-Disposition: form-data; name="file"; filename="a.jpg"',
    'Content-Type: image/jpeg; charset=\u00ff',
  ],
  ['Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%E0%A4%A.jpg'],
  ['Content-Disposition: form-data; name="file"; filename*=garbage'],
  [
    'Content-Disposition: form-data; name="file"; filename="a.jpg"',
    'Content-Transfer-Encoding: base64',
  ],
  Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`),
];

/** A valid upload, or one broken in one of many ways (boundary, parts, headers, files). */
export function multipartCase(rng: Rng, options: GenOptions, forceValid = false): MultipartCase {
  const boundary = `----fuzz${rng.hex(16)}`;
  const ct = `multipart/form-data; boundary=${boundary}`;
  const file = fileContent(rng, options, forceValid);
  const ext = file.label === 'pdf' ? 'pdf' : file.label === 'png' ? 'png' : 'jpg';
  const good = filePart(file.bytes, `card.${ext}`, file.type);
  if (forceValid) {
    return {
      payload: encodeMultipart(boundary, [good]),
      contentType: ct,
      label: `valid ${file.label}`,
      valid: true,
    };
  }
  const whole = encodeMultipart(boundary, [good]);
  const kind = rng.weighted([
    [3, 'file-content'],
    [2, 'no-boundary'],
    [2, 'truncated'],
    [2, 'bad-part-headers'],
    [2, 'field-name'],
    [1, 'filename'],
    [1, 'fields'],
    [1, 'two-files'],
    [1, 'no-parts'],
    [1, 'boundary-mismatch'],
    [1, 'boundary-odd'],
    [1, 'line-endings'],
    [1, 'preamble'],
    [1, 'not-multipart'],
    [1, 'content-type'],
  ] as const);
  switch (kind) {
    case 'file-content':
      return {
        payload: whole,
        contentType: ct,
        label: `file ${file.label}`,
        valid: ['jpeg', 'png', 'pdf', 'gif', 'webp', 'heic'].includes(file.label),
      };
    case 'no-boundary':
      return {
        payload: whole,
        contentType: rng.pick([
          'multipart/form-data',
          'multipart/form-data;',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=""',
          'multipart/form-data; charset=utf-8',
        ]),
        label: 'no boundary',
        valid: false,
      };
    case 'truncated': {
      const cut = rng.int(0, whole.length - 1);
      return {
        payload: whole.subarray(0, cut),
        contentType: ct,
        label: `truncated at ${cut}`,
        valid: false,
      };
    }
    case 'bad-part-headers': {
      const headers = rng.pick(BAD_PART_HEADERS);
      return {
        payload: encodeMultipart(boundary, [{ headers, body: file.bytes }]),
        contentType: ct,
        label: 'bad part headers',
        valid: false,
      };
    }
    case 'field-name': {
      const name = rng.pick([
        'image',
        '',
        'FILE',
        'file[]',
        'file\u0000',
        ' file',
        'files',
        '__proto__',
      ]);
      return {
        payload: encodeMultipart(boundary, [filePart(file.bytes, 'a.jpg', file.type, name)]),
        contentType: ct,
        label: `field ${JSON.stringify(name)}`,
        valid: false,
      };
    }
    case 'filename': {
      const filename = rng.pick([
        '',
        '../../../etc/passwd',
        '..\\..\\x.jpg',
        'a\u0000.jpg',
        'a.jpg\u0000.php',
        'a".jpg',
        'a\r\nX: y.jpg',
        '😀.jpg',
        '\u202egpj.exe',
        'x'.repeat(10_000),
        '.htaccess',
        'CON',
        'a.svg',
      ]);
      const valid = ['jpeg', 'png', 'pdf', 'gif', 'webp', 'heic'].includes(file.label);
      return {
        payload: encodeMultipart(boundary, [filePart(file.bytes, filename, file.type)]),
        contentType: ct,
        label: `filename ${JSON.stringify(filename.slice(0, 20))}`,
        // A name with CR LF breaks the part's headers; others are fine.
        valid: valid && !/[\r\n"]/.test(filename) && !filename.includes('\u0000'),
      };
    }
    case 'fields': {
      const count = rng.pick([1, 10, 11, 50]);
      const fields = Array.from({ length: count }, (_, i) =>
        fieldPart(
          rng.pick([`f${i}`, 'cardType', '__proto__', 'file']),
          rng.chance(0.2)
            ? 'x'.repeat(rng.pick([1000, options.big ? 1_100_000 : 110_000]))
            : `v\u0000${i}`,
        ),
      );
      const before = rng.chance(0.5);
      return {
        payload: encodeMultipart(boundary, before ? [...fields, good] : [good, ...fields]),
        contentType: ct,
        label: `${count} text fields ${before ? 'before' : 'after'} the file`,
        valid: false,
      };
    }
    case 'two-files':
      return {
        payload: encodeMultipart(boundary, [good, filePart(file.bytes, 'b.jpg', file.type)]),
        contentType: ct,
        label: 'two files',
        valid: false,
      };
    case 'no-parts':
      return {
        payload: rng.pick([`--${boundary}--\r\n`, '', `--${boundary}\r\n\r\n`, '\r\n']),
        contentType: ct,
        label: 'no parts',
        valid: false,
      };
    case 'boundary-mismatch':
      return {
        payload: encodeMultipart(`${boundary}x`, [good]),
        contentType: ct,
        label: 'boundary mismatch',
        valid: false,
      };
    case 'boundary-odd': {
      const odd = rng.pick([
        'x'.repeat(71),
        'x'.repeat(200),
        'a b',
        '"quoted"',
        '--',
        'é',
        ';',
        'a=b',
      ]);
      return {
        payload: encodeMultipart(odd.replaceAll('"', ''), [good]),
        contentType: `multipart/form-data; boundary=${odd}`,
        label: `boundary ${JSON.stringify(odd.slice(0, 12))}`,
        valid: false,
      };
    }
    case 'line-endings':
      return {
        payload: encodeMultipart(boundary, [good], { eol: rng.pick(['\n', '\r', '\n\r']) }),
        contentType: ct,
        label: 'bare line endings',
        valid: false,
      };
    case 'preamble':
      return {
        payload: encodeMultipart(boundary, [good], {
          preamble: rng.pick(['garbage', `--${boundary}x`, '\u0000']),
          epilogue: rng.pick(['', 'trailing garbage', `--${boundary}\r\n`]),
        }),
        contentType: ct,
        label: 'preamble and epilogue',
        valid: false,
      };
    case 'not-multipart':
      return {
        payload: rng.pick(['{"file":"x"}', file.bytes, '']),
        contentType: rng.pick([
          ct,
          'application/json',
          'image/jpeg',
          'application/octet-stream',
          undefined,
        ]),
        label: 'not a multipart body',
        valid: false,
      };
    case 'content-type':
      return {
        payload: whole,
        contentType: rng.pick([
          `multipart/mixed; boundary=${boundary}`,
          `multipart/related; boundary=${boundary}`,
          `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`,
          `multipart/form-data; boundary=${boundary}; boundary=other`,
          `multipart/form-data; charset=utf-16; boundary=${boundary}`,
          `text/plain; boundary=${boundary}`,
        ]),
        label: 'odd multipart content type',
        valid: false,
      };
  }
}

/**
 * Every kind of broken upload once, with small and large bodies (some parsers only stall once a
 * part outgrows a buffer): the deterministic part of the upload fuzzing.
 */
export function multipartCorpus(): MultipartCase[] {
  const rng = new Rng(1);
  const boundary = '----fuzzcorpus';
  const ct = `multipart/form-data; boundary=${boundary}`;
  const jpeg = (size: number) =>
    Buffer.concat([FIXTURE_JPEG.subarray(0, 4), Buffer.alloc(Math.max(0, size - 4), 0x41)]);
  const cases: MultipartCase[] = [];
  const add = (label: string, payload: Buffer | string, contentType: string | undefined = ct) =>
    cases.push({ label, payload, contentType, valid: false });

  for (const size of [5, 20_000, 70_000]) {
    for (const headers of BAD_PART_HEADERS) {
      add(
        `part headers ${JSON.stringify(headers).slice(0, 60)}, ${size} bytes`,
        encodeMultipart(boundary, [{ headers, body: jpeg(size) }]),
      );
    }
    for (const name of ['image', '', 'file[]', '__proto__']) {
      add(
        `field ${JSON.stringify(name)}, ${size} bytes`,
        encodeMultipart(boundary, [filePart(jpeg(size), 'a.jpg', 'image/jpeg', name)]),
      );
    }
    add(
      `a text field only, ${size} bytes`,
      encodeMultipart(boundary, [fieldPart('file', jpeg(size))]),
    );
    add(
      `a text field then the file, ${size} bytes`,
      encodeMultipart(boundary, [fieldPart('note', 'x'.repeat(size)), filePart(jpeg(size))]),
    );
    add(
      `two files, ${size} bytes`,
      encodeMultipart(boundary, [filePart(jpeg(size)), filePart(jpeg(size), 'b.jpg')]),
    );
    add(
      `no closing boundary, ${size} bytes`,
      encodeMultipart(boundary, [filePart(jpeg(size))], { close: false }),
    );
    add(`bare LF, ${size} bytes`, encodeMultipart(boundary, [filePart(jpeg(size))], { eol: '\n' }));
    const whole = encodeMultipart(boundary, [filePart(jpeg(size))]);
    for (const cut of [1, 40, Math.floor(whole.length / 2), whole.length - 3]) {
      add(`truncated at ${cut} of ${whole.length}`, whole.subarray(0, cut));
    }
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${boundary}x`,
      `multipart/mixed; boundary=${boundary}`,
      'application/octet-stream',
      undefined,
    ]) {
      add(`content type ${contentType ?? 'none'}, ${size} bytes`, whole, contentType);
    }
  }
  for (const count of [10, 11, 50]) {
    add(
      `${count} text fields before the file`,
      encodeMultipart(boundary, [
        ...Array.from({ length: count }, (_, i) => fieldPart(`f${i}`, 'v')),
        filePart(jpeg(100)),
      ]),
    );
  }
  for (const payload of [
    '',
    `--${boundary}--\r\n`,
    `--${boundary}\r\n\r\n`,
    '\r\n',
    '{"file":"x"}',
  ]) {
    add(`body ${JSON.stringify(payload)}`, payload);
  }
  for (const kind of ['empty', 'random', 'html', 'svg']) {
    const bytes =
      kind === 'empty'
        ? Buffer.alloc(0)
        : kind === 'random'
          ? rng.bytes(5000)
          : Buffer.from(
              kind === 'html' ? '<html><script>alert(1)</script>' : '<svg onload="alert(1)"/>',
            );
    add(`file ${kind}`, encodeMultipart(boundary, [filePart(bytes)]));
  }
  return cases;
}

/**
 * Values every field of every JSON body gets once, deterministically: lengths just past each
 * column's limit (100, 120, 200, 254, 2000, 5000), characters that grow when lower-cased or
 * encoded, controls, numbers as strings, and every wrong type.
 */
export function fieldCorpusValues(): { label: string; value: JsonLike }[] {
  const long = (n: number, unit = 'a') => unit.repeat(n);
  return [
    ...[101, 121, 201, 255, 2_001, 5_001, 100_000].map((n) => ({
      label: `${n} characters`,
      value: long(n),
    })),
    { label: '101 emoji (202 UTF-16 units)', value: long(101, '😀') },
    { label: '127 × İ (grows when lower-cased)', value: long(127, 'İ') },
    { label: 'email of 254', value: `${long(245)}@b.co.uk` },
    { label: 'email of 255', value: `${long(246)}@b.co.uk` },
    { label: 'email of 264 (many labels)', value: `a@${'b.'.repeat(130)}co` },
    { label: 'email with a 64+ local part', value: `${long(70)}@example.com` },
    { label: 'empty', value: '' },
    { label: 'spaces', value: '   ' },
    { label: 'NUL', value: 'a\u0000b' },
    { label: 'BEL', value: 'a\u0007b' },
    { label: 'CR LF', value: 'a\r\nb' },
    { label: 'RTL override', value: 'a\u202eb' },
    { label: 'lone surrogate', value: 'a\ud800b' },
    { label: 'number as string', value: '1e3' },
    { label: 'money with 3 decimals', value: '99999999.999' },
    { label: 'null', value: null },
    { label: 'zero', value: 0 },
    { label: 'negative', value: -1 },
    { label: 'float', value: 0.1 + 0.2 },
    { label: 'huge number', value: 1e21 },
    { label: '1e309', value: new RawJson('1e309') },
    { label: 'true', value: true },
    { label: 'array', value: ['a'] },
    { label: 'object', value: JsonObject.from({ a: 'b' }) },
  ];
}

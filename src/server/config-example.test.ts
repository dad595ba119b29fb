import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config';

const example = readFileSync(path.resolve(import.meta.dirname, '../../.env.example'), 'utf8');
const listed = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);

describe('.env.example', () => {
  it('lists every variable the server reads, and nothing else', () => {
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });
});

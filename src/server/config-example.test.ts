import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const example = read('.env.example');
const listed = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);

/** Variables only `npm run dev` reads (scripts/dev.mjs and vite.config.ts), never the server. */
const DEV_ONLY = ['API_PORT'];

/** The variables README's Configuration table names, one or several per row. */
function readmeVariables() {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| variable |')));
  const names: string[] = [];
  for (const line of table.split('\n').filter((l) => l.startsWith('| `'))) {
    const first = line.split('|')[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(m[1]!);
  }
  return names;
}

describe('.env.example', () => {
  it('lists every variable the server reads, and nothing else', () => {
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });
});

describe("README's configuration table (issue 43 item 24)", () => {
  it('names every variable of the config schema and .env.example, and the dev-only ones, once', () => {
    const names = readmeVariables();
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...Object.keys(envSchema.shape), ...DEV_ONLY].sort());
    expect([...names].sort()).toEqual([...listed, ...DEV_ONLY].sort());
  });

  it('gives each server variable the default the schema has', () => {
    const readme = read('README.md');
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const parsed = schema.safeParse(undefined);
      const fallback = parsed.success ? parsed.data : undefined;
      if (typeof fallback !== 'number') continue;
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
      expect(row, name).toContain(`| \`${fallback}\` |`);
    }
  });

  it('says which ports npm run dev uses, as scripts/dev.mjs and vite.config.ts read them', () => {
    const dev = read('scripts/dev.mjs');
    const vite = read('vite.config.ts');
    const apiPort = dev.match(/process\.env\.API_PORT \?\? '(\d+)'/)?.[1];
    const vitePort = vite.match(/process\.env\.PORT \?\? (\d+)/)?.[1];
    expect(apiPort).toBeDefined();
    expect(vitePort).toBeDefined();
    const row = read('README.md')
      .split('\n')
      .find((l) => l.startsWith('| `npm run dev` |'));
    expect(row).toContain(`\`API_PORT\`, default ${apiPort}`);
    expect(row).toContain(`\`PORT\`, default ${vitePort}`);
  });
});

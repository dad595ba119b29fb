import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const names = (dir: string, keep: (name: string) => boolean = () => true) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => keep(entry.name) && !entry.name.endsWith('.test.ts'))
    .map((entry) => entry.name)
    .sort();

describe('docs/architecture.md (issue 44, item 8)', () => {
  const doc = read('docs/architecture.md');
  /** Whether the page names `name` in code type, alone or as the end of a path. */
  const named = (name: string) =>
    new RegExp(`\`([^\`]*/)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?\``).test(doc);

  it('names every room of the server, every module, every common file and every client feature', () => {
    const missing = [
      ...names('src/server', (n) => !n.includes('.')).map((n) => `${n}/`),
      ...names('src/server/modules'),
      ...names('src/server/common', (n) => n.endsWith('.ts') && !n.endsWith('.d.ts')),
      ...names('src/client/features'),
    ].filter((name) => !named(name.replace(/\/$/, '')));
    expect(missing).toEqual([]);
  });

  it('names no common file or module that does not exist', () => {
    const commonFiles = [...doc.matchAll(/`(?:common\/)?([a-z-]+\.ts)`/g)].map((m) => m[1]!);
    const inCommon = new Set(names('src/server/common'));
    const elsewhere = (file: string) =>
      [
        'src/server',
        'src/server/mail',
        'src/server/db',
        'src/server/live',
        'src/server/plugins',
        'src/server/storage',
        'src/server/cli',
        ...names('src/server/modules').map((m) => `src/server/modules/${m}`),
        'scripts/lib',
      ].some((dir) => existsSync(path.join(root, dir, file)));
    expect(commonFiles.filter((f) => !inCommon.has(f) && !elsewhere(f))).toEqual([]);
    const modules = [...doc.matchAll(/`modules\/([a-z-]+)`/g)].map((m) => m[1]!);
    const real = new Set(names('src/server/modules'));
    expect(modules.filter((m) => m !== 'x' && !real.has(m))).toEqual([]);
  });
});

describe('the decision records (issue 44, item 8)', () => {
  const index = read('docs/decisions/README.md');
  const files = names('docs/decisions', (n) => /^\d{3}-.+\.md$/.test(n));
  const numbers = files.map((f) => Number(f.slice(0, 3)));

  it('index every record, in number order, each opening with its number', () => {
    const rows = [...index.matchAll(/^\| \[(\d{3})\]\((\d{3}-[^)]+\.md)\) \|/gm)].map((m) => m[2]!);
    expect(rows).toEqual(files);
    for (const file of files) {
      expect(read(`docs/decisions/${file}`).split('\n')[0], file).toMatch(
        new RegExp(`^# ${file.slice(0, 3)} `),
      );
    }
  });

  it('say which numbers were never used', () => {
    const used = new Set(numbers);
    const unused = Array.from({ length: Math.max(...numbers) }, (_, i) => i + 1).filter(
      (n) => !used.has(n),
    );
    const line = /^Numbers never used: (.*)\.$/m.exec(index);
    expect(line?.[1], 'the index has a line "Numbers never used: …."').toBe(
      unused.map((n) => String(n).padStart(3, '0')).join(', '),
    );
  });
});

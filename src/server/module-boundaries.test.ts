import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
// The project's lint rules, applied to probe files placed where the rules look (the rules match
// by path), in a copy of the project's layout: nothing is written into src.
const copy = mkdtempSync(path.join(tmpdir(), 'cb-boundaries-'));
copyFileSync(path.join(root, 'biome.json'), path.join(copy, 'biome.json'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The lines of `file` (a path under src/) whose imports the lint refuses. */
function refusedLines(file: string, lines: string[]): number[] {
  const probe = path.join(copy, file);
  mkdirSync(path.dirname(probe), { recursive: true });
  writeFileSync(probe, `${lines.join('\n')}\n`);
  const result = spawnSync(biome, ['lint', '--max-diagnostics=100', file], {
    cwd: copy,
    encoding: 'utf8',
  });
  const output = result.stdout + result.stderr;
  const refused = [...output.matchAll(/:(\d+):\d+ lint\/style\/noRestrictedImports/g)];
  return refused.map((m) => Number(m[1])).sort((a, b) => a - b);
}

describe('a module is reached only through its public entry (issue 44, item 3)', () => {
  it('refuses every other path into another module, however it is written', () => {
    // payouts may use the cards module (biome.json says why), through its index.ts only.
    const refused = refusedLines('src/server/modules/payouts/probe.ts', [
      "import { a } from '../cards';",
      "import { b } from '../cards/payment';",
      "import { c } from '../../modules/cards/payment';",
      "import { d } from '../../modules/cards';",
      "import { e } from '../../../server/modules/cards/change';",
      "import { f } from '../cards/../verification';",
      "import { g } from '../verification';",
      "import { h } from '../../common/audit';",
      "import { i } from '../../../shared/money';",
      'export const all = [a, b, c, d, e, f, g, h, i];',
    ]);
    // Allowed: the public entry of a module payouts may use, the floor, src/shared.
    expect(refused).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('lets the top floor register routes and use public entries, nothing deeper', () => {
    const refused = refusedLines('src/server/probe.ts', [
      "import a from './modules/cards/routes';",
      "import { b } from './modules/cards';",
      "import { c } from './modules/cards/payment';",
      "import { d } from './modules/ledger/post';",
      'export const all = [a, b, c, d];',
    ]);
    expect(refused).toEqual([3, 4]);
    expect(
      refusedLines('src/server/cli/probe.ts', [
        "import { a } from '../modules/auth';",
        "import { b } from '../modules/auth/two-factor';",
        'export const all = [a, b];',
      ]),
    ).toEqual([2]);
  });
});

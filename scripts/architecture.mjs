// npm run arch: the server's import graph measured and checked (issue 44, decision 098): files and
// arrows, upward arrows (an import into a room above), circles, the floors (the longest chain of
// rooms), deep imports into another module. Exits 1 on any violation or past MAX_FLOORS floors.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const MAX_FLOORS = 7;
const { rooms } = createRequire(import.meta.url)('./lib/rooms.cjs');
const result = spawnSync(
  'node_modules/.bin/depcruise',
  ['src/server', 'src/shared', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
  { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (!result.stdout) {
  console.error(result.stderr);
  process.exit(2);
}
const { modules, summary } = JSON.parse(result.stdout);
const roomOf = (file) => rooms.find(([, pattern]) => new RegExp(pattern).test(file))?.[0];
const own = modules.filter((m) => roomOf(m.source));
const arrows = own.flatMap((m) =>
  m.dependencies.filter((d) => roomOf(d.resolved)).map((d) => [m.source, d.resolved]),
);

// Floors: the longest chain of rooms, each importing the next, over the arrows between rooms.
const between = new Map(rooms.map(([name]) => [name, new Set()]));
for (const [from, to] of arrows) {
  if (roomOf(from) !== roomOf(to)) between.get(roomOf(from)).add(roomOf(to));
}
const depth = new Map();
const floorsOf = (room, seen = new Set()) => {
  if (depth.has(room)) return depth.get(room);
  if (seen.has(room)) return Number.POSITIVE_INFINITY; // a circle between rooms
  seen.add(room);
  const below = [...between.get(room)].map((r) => floorsOf(r, seen));
  seen.delete(room);
  const floors = 1 + Math.max(0, ...below);
  depth.set(room, floors);
  return floors;
};
const floors = Math.max(...rooms.map(([name]) => floorsOf(name)));

const count = (prefix) => summary.violations.filter((v) => v.rule.name.startsWith(prefix)).length;
const measures = {
  files: own.length,
  arrows: arrows.length,
  'upward arrows': count('upward-'),
  circles: count('no-circular'),
  floors,
  'deep imports into a module': count('module-public-entry') + count('top-floor-public-entry'),
};
for (const [name, value] of Object.entries(measures)) console.log(`${name.padEnd(28)} ${value}`);
for (const v of summary.violations) console.log(`  ${v.rule.name}: ${v.from} -> ${v.to}`);
const failed = summary.violations.length > 0 || floors > MAX_FLOORS;
if (failed)
  console.log(
    `FAIL: ${summary.violations.length} violation(s), ${floors} floors (at most ${MAX_FLOORS})`,
  );
process.exit(failed ? 1 : 0);

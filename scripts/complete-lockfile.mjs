// The registry this project installs from serves only the platform packages this machine can
// use, so npm leaves the other platforms' optional binaries (biome, tailwind's oxide) out of
// package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each missing
// optional package with the os, cpu and libc its name states, so every platform skips the
// others' binaries and `npm ci` accepts the lock. Idempotent; runs after every install.
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = 'package-lock.json';
const OSES = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'sunos',
  'win32',
  'aix',
];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

const lock = JSON.parse(readFileSync(FILE, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[`node_modules/${name}`] || packages[nested]) continue;
    const parts = name.split('/').pop().split('-');
    const entry = { version, dev: meta.dev || undefined, optional: true };
    const os = OSES.find((o) => parts.includes(o));
    const cpu = CPUS.find((c) => parts.includes(c));
    entry.os = [os ?? 'none'];
    if (cpu) entry.cpu = [cpu];
    if (parts.includes('musl')) entry.libc = ['musl'];
    packages[`node_modules/${name}`] = entry;
    added++;
  }
}
if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) =>
      a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
    ),
  );
  writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional platform packages to ${FILE}`);
}

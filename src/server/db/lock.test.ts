import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase, processStart } from './client';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database lock', () => {
  it('keeps a second opener out while the first holds the folder', async () => {
    const dir = fresh();
    const first = await openDatabase({ pgliteDir: dir });
    try {
      const lock = readFileSync(path.join(dir, 'cardbridge.lock'), 'utf8');
      expect(lock).toBe(`${process.pid} ${processStart(process.pid)}`);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
    } finally {
      await first.close();
    }
  });

  it('takes over a lock whose pid now belongs to another, unrelated process', async () => {
    const dir = fresh();
    const other = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      // The pid is alive, but it is not the process that wrote the lock (another start time).
      writeFileSync(path.join(dir, 'cardbridge.lock'), `${other.pid} 1`);
      const database = await openDatabase({ pgliteDir: dir });
      await database.close();
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = fresh();
    writeFileSync(path.join(dir, 'cardbridge.lock'), '999999999');
    const database = await openDatabase({ pgliteDir: dir });
    await database.close();
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    staff: { email: string; password: string };
  }
}

/**
 * Starts the built server on a fresh embedded database, as a newcomer's first start would, and
 * reads the staff account it prints once.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-e2e-'));
  const port = await freePort();
  const server: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Every browser test signs up from 127.0.0.1; the limits have API tests of their own.
      LIMIT_SIGNUPS_PER_ADDRESS: '100000',
      LIMIT_CHAT_MESSAGES_PER_MINUTE: '100000',
      LIMIT_UPLOADS_PER_HOUR: '100000',
      LIMIT_TICKETS_PER_HOUR: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const staff = await new Promise<{ email: string; password: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const email = output.match(/email:\s+(\S+)/)?.[1];
      const password = output.match(/password:\s+(\S+)/)?.[1];
      if (email && password) {
        clearTimeout(timer);
        resolve({ email, password });
      }
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  const baseURL = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${baseURL}/api/auth/user`)).status === 401) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide('baseURL', baseURL);
  project.provide('staff', staff);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

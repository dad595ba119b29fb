import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port';

/** `npm run dev` as a developer starts it: the API under tsx and Vite with its proxy. */

let dev: ChildProcess;
let base: string;
let dataDir: string;
beforeAll(async () => {
  const [port, apiPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(path.join(tmpdir(), 'cb-dev-'));
  base = `http://localhost:${port}`;
  dev = spawn('npm', ['run', 'dev'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), API_PORT: String(apiPort), DATA_DIR: dataDir },
    stdio: 'ignore',
    detached: true,
  });
  // Up when the API answers through Vite's proxy.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = await fetch(`${base}/api/auth/user`).catch(() => null);
    if (answer?.status === 401) break;
    if (Date.now() > deadline) throw new Error('npm run dev did not come up in 90 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}, 120_000);
afterAll(() => {
  if (dev.pid) process.kill(-dev.pid, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('serves the app and signs up through the Vite port, as the browser sends it', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const signup = await fetch(`${base}/api/signup`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: base,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify({
        email: `dev.${Date.now()}@example.com`,
        password: 'a dev password',
        firstName: 'Dev',
        lastName: 'Mode',
      }),
    });
    expect(signup.status).toBe(200);
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const me = await fetch(`${base}/api/auth/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).firstName).toBe('Dev');

    // Another site is still refused.
    const forged = await fetch(`${base}/api/logout`, {
      method: 'POST',
      headers: { cookie, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(forged.status).toBe(403);
  });
});

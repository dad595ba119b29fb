import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from './free-port';
import { serverArgs } from './server-command';

/** The resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

/** A process's user and system CPU time so far, in seconds (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until `url` answers at all (any status), or with `status` when given. Fails when `child`
 * exits first, or after `seconds`.
 */
export async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  { status, seconds = 60 }: { status?: number; seconds?: number } = {},
) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url}: the process exited (${child.exitCode ?? child.signalCode})`);
    }
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (status === undefined || response.status === status) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** Sends SIGTERM and waits for the process to exit (at once if it already has). */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export interface BuiltServer {
  process: ChildProcess;
  port: number;
  /** http://127.0.0.1:PORT */
  base: string;
  /** What it printed so far, stdout and stderr together (the first start's staff account, say). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built server (dist/server/main.js) exactly as `npm start` runs it, on 127.0.0.1 and
 * a free port, with `env` over this process's environment; another checkout's with `checkout` (a
 * benchmark's comparison of two builds). It answers once the server does (a signed-out
 * /api/auth/user: 401), and fails with what the server printed if it exits first. The
 * benchmarks, the cluster test and the browser tests all start it here.
 */
export async function startBuiltServer(
  env: Record<string, string | undefined>,
  { port, checkout }: { port?: number; checkout?: string } = {},
): Promise<BuiltServer> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, serverArgs(checkout), {
    cwd: checkout,
    env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(listenPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));
  // The last million characters it printed, kept as chunks: copying the whole million for every
  // chunk took the soak's parent process 7-16% of a core once a run's log passed 1 MB.
  const chunks: string[] = [];
  let kept = 0;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    chunks.push(text);
    kept += text.length;
    while (kept - chunks[0]!.length >= 1_000_000) kept -= chunks.shift()!.length;
  };
  const output = () => chunks.join('').slice(-1_000_000);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const base = `http://127.0.0.1:${listenPort}`;
  try {
    // A fresh embedded database's first start (its migrations) took over a minute on a machine
    // others shared (CI runs the browser tests beside two API lanes): three minutes, or
    // SERVER_START_SECONDS. A server that never starts still fails, with what it printed.
    const seconds = Number(process.env.SERVER_START_SECONDS) || 180;
    await waitUntilAnswering(`${base}/api/auth/user`, child, { status: 401, seconds });
  } catch (error) {
    await stopProcess(child);
    throw new Error(`the built server did not start (${(error as Error).message}):\n${output()}`);
  }
  return {
    process: child,
    port: listenPort,
    base,
    output,
    stop: () => stopProcess(child),
  };
}

import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort } from './free-port';
import { cpuSeconds, stopProcess, waitUntilAnswering } from './processes';

export interface RawCeiling {
  /** Requests a second a raw node:http hello world answered. */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The raw server's own CPU per request, in ms: the host's speed, beside the figures it frames. */
  cpuPerRequestMs: number;
}

/**
 * The ceiling of the machine at this moment (issue 45): raw node:http answering a fixed small JSON
 * body (the body of ../shared/bench/raw-ceiling.mjs) at `connections` connections for `seconds`.
 * Measured in the same run as the figures it frames, since the machine's speed moves by hours.
 */
export async function measureRawCeiling(seconds: number, connections = 50): Promise<RawCeiling> {
  const port = await freePort();
  const raw = spawn(
    process.execPath,
    [
      '-e',
      `const body = JSON.stringify({ hello: 'world' });
       require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); }).listen(${port}, '127.0.0.1');`,
    ],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(base, raw);
    const cpuBefore = cpuSeconds(raw.pid!);
    const result = await autocannon({ url: base, connections, duration: seconds });
    const cpu = cpuSeconds(raw.pid!) - cpuBefore;
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + result.timeouts,
      cpuPerRequestMs: (1000 * cpu) / Math.max(1, result.requests.total),
    };
  } finally {
    await stopProcess(raw);
  }
}

/** One line for a benchmark's output. */
export const rawCeilingLine = (raw: RawCeiling) =>
  `raw node:http in this run: ${raw.rps.toFixed(0)} req/s (p99 ${raw.p99} ms), its CPU ${(1000 * raw.cpuPerRequestMs).toFixed(1)} µs a request`;

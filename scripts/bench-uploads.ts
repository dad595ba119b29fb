/**
 * npm run bench:uploads: a server's memory while 20 customers each upload a 10 MB photo at the
 * same moment. Cardbridge streams uploads to storage, so its resident memory should move no more
 * than a server that reads the same bytes and throws them away: a raw node:http server measured
 * in the same run, the floor for any Node server here. The target: at most 20 MB growth.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../src/shared/card-rules';
import { freePort } from './free-port';
import { serverArgs, serverFlags } from './server-command';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MB = 20;

async function started(child: ChildProcess, base: string) {
  for (let i = 0; ; i++) {
    try {
      await fetch(base);
      return;
    } catch {
      if (i > 300 || child.exitCode !== null) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const rssMb = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024;

const jpegStart = readFileSync('tests/fixtures/card-front.jpg');
const photo = Buffer.concat([
  jpegStart,
  Buffer.alloc(MAX_UPLOAD_BYTES - 1024 - jpegStart.length, 7),
]);

/** One multipart upload of `photo`, streamed from the shared buffer (the client copies nothing). */
function upload(url: string, cookie: string): Promise<number> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + photo.length + tail.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.write(head);
    for (let at = 0; at < photo.length; at += 256 * 1024) {
      request.write(photo.subarray(at, at + 256 * 1024));
    }
    request.end(tail);
  });
}

/**
 * The resident memory of `pid` around UPLOADS concurrent uploads, after one upload has warmed the
 * code paths and buffers: growth is measured 2 s after the last answer.
 */
async function measure(pid: number, url: string, cookies: string[]) {
  await upload(url, cookies[0]!);
  await new Promise((r) => setTimeout(r, 500));
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  const started = performance.now();
  const statuses = await Promise.all(cookies.map((cookie) => upload(url, cookie)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssMb(pid);
  return { growth: after - before, peak: Math.max(peak, after) - before, statuses, seconds };
}

async function cardbridge() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-uploads-'));
  const server = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      LIMIT_SIGNUPS_PER_ADDRESS: '1000',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  await started(server, `${base}/api/auth/user`);
  const cookies = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, i) => {
      const response = await fetch(`${base}/api/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `uploader${i}@bench.example`,
          password: 'bench password 1',
          firstName: 'Up',
          lastName: `Loader${i}`,
        }),
      });
      if (!response.ok) throw new Error(`sign-up ${i}: ${response.status}`);
      return response.headers.getSetCookie()[0]!.split(';')[0]!;
    }),
  );
  const result = await measure(server.pid!, `${base}/api/upload-card-image`, cookies);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  return result;
}

/** A raw node:http server that reads the bytes and throws them away, with node `flags`. */
async function rawFloor(flags: string[]) {
  const port = await freePort();
  const server = spawn(process.execPath, [
    ...flags,
    '-e',
    `require('node:http').createServer((req, res) => { req.on('data', () => {}); req.on('end', () => res.end('{}')); }).listen(${port}, '127.0.0.1');`,
  ]);
  const base = `http://127.0.0.1:${port}`;
  await started(server, base);
  const result = await measure(server.pid!, base, Array(UPLOADS).fill(''));
  server.kill('SIGTERM');
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
// npm start's node flags (package.json): the raw server is measured without them, and with them.
const flags = serverFlags();
const rows: { name: string; runs: Awaited<ReturnType<typeof measure>>[] }[] = [
  {
    name: `Cardbridge (streams to storage; npm start: ${flags.join(' ') || 'no flags'})`,
    runs: [],
  },
  { name: 'raw node:http reading and discarding', runs: [] },
  ...(flags.length > 0
    ? [{ name: `raw node:http reading and discarding, ${flags.join(' ')}`, runs: [] }]
    : []),
];
for (let run = 0; run < RUNS; run++) {
  rows[0]!.runs.push(await cardbridge());
  rows[1]!.runs.push(await rawFloor([]));
  if (flags.length > 0) rows[2]!.runs.push(await rawFloor(flags));
}
console.log(
  `${UPLOADS} concurrent uploads of ${(photo.length / 1024 / 1024).toFixed(1)} MB, ${RUNS} runs each (median; all runs)`,
);
for (const { name, runs } of rows) {
  const growth = runs.map((r) => r.growth);
  const peak = runs.map((r) => r.peak);
  const statuses = [...new Set(runs.flatMap((r) => r.statuses))].join(', ');
  const seconds = median(runs.map((r) => r.seconds));
  const rate = (UPLOADS * photo.length) / 2 ** 20 / seconds;
  console.log(
    `${name.padEnd(60)} RSS growth ${median(growth).toFixed(1)} MB (${growth.map((g) => g.toFixed(0)).join(', ')}), peak +${median(peak).toFixed(1)} MB; all ${UPLOADS} in ${seconds.toFixed(2)} s (${rate.toFixed(0)} MB/s); statuses ${statuses}`,
  );
}
const ours = median(rows[0]!.runs.map((r) => r.growth));
console.log(`target: at most ${TARGET_MB} MB of growth: ${ours <= TARGET_MB ? 'met' : 'not met'}`);
process.exit(rows[0]!.runs.every((r) => r.statuses.every((s) => s === 200)) ? 0 : 1);

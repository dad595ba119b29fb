/**
 * npm run bench:uploads: a server's memory while 20 customers each upload a real photo (a
 * 4000 × 3000 JPEG of several MB, made at the start with sharp) at the same moment. Cardbridge
 * streams each upload to storage and hashes it (the perceptual hash of decision 054) on the way;
 * its resident memory is compared with a server that reads the same bytes and throws them away: a
 * raw node:http server measured in the same run, the floor for any Node server here. Issue 23's
 * target: a peak RSS growth of at most 100 MB, and every upload stored and hashed. Also the
 * answers' p50 and max, and the slowest /healthz during the batch and the 2 s after it (issue 26).
 * The hashes are made after the answers (decisions 086, 087): they are counted once the server
 * has stopped, which waits for them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../src/server/db/client';
import { freePort } from './lib/free-port';
import { rssMb, startBuiltServer, stopProcess, waitUntilAnswering } from './lib/processes';
import { serverFlags } from './lib/server-command';
import { median } from './lib/stats';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_PEAK_MB = 100;

const WIDTH = 4000;
const HEIGHT = 3000;

/**
 * A photo-like 4000 × 3000 JPEG: a gradient under 40 translucent shapes, blurred, with fine grain
 * on every pixel (what makes a camera's JPEG several MB). Each seed gives a different picture.
 */
async function makePhoto(seed: number): Promise<Buffer> {
  let state = (seed * 2654435761) >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
  const rand = () => next() / 2 ** 32;
  const byte = () => Math.round(rand() * 255);
  const shapes = Array.from({ length: 40 }, () => {
    const r = Math.round(100 + rand() * 700);
    const fill = `fill="rgb(${byte()},${byte()},${byte()})" fill-opacity="0.6"`;
    const [x, y] = [Math.round(rand() * WIDTH), Math.round(rand() * HEIGHT)];
    return rand() < 0.5
      ? `<circle cx="${x}" cy="${y}" r="${r}" ${fill}/>`
      : `<rect x="${x}" y="${y}" width="${2 * r}" height="${r}" ${fill} transform="rotate(${Math.round(rand() * 90)} ${WIDTH / 2} ${HEIGHT / 2})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="rgb(${byte()},120,80)"/><stop offset="1" stop-color="rgb(30,${byte()},200)"/></linearGradient></defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>${shapes}</svg>`;
  const scene = await sharp(Buffer.from(svg)).removeAlpha().blur(6).raw().toBuffer();
  for (let i = 0; i < scene.length; i++) {
    scene[i] = Math.max(0, Math.min(255, scene[i]! + ((next() >>> 24) - 128) * 0.4));
  }
  return sharp(scene, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** UPLOADS + 1 distinct photos (one for the warm-up), made once and kept in the system's temp folder. */
async function photos(): Promise<Buffer[]> {
  const folder = path.join(tmpdir(), 'cardbridge-bench-photos-v1');
  mkdirSync(folder, { recursive: true });
  const made: Buffer[] = [];
  for (let i = 0; i <= UPLOADS; i++) {
    const file = path.join(folder, `photo-${i}.jpg`);
    if (!existsSync(file)) writeFileSync(file, await makePhoto(i + 1));
    made.push(readFileSync(file));
  }
  return made;
}

const started0 = performance.now();
const PHOTOS = await photos();
const photoMb = PHOTOS.map((p) => p.length / 2 ** 20);
console.log(
  `${PHOTOS.length} photos of ${WIDTH} × ${HEIGHT}, ${Math.min(...photoMb).toFixed(1)}–${Math.max(...photoMb).toFixed(1)} MB (ready in ${((performance.now() - started0) / 1000).toFixed(1)} s)`,
);

/** One multipart upload of `photo`, streamed from its buffer (the client copies nothing). */
function upload(url: string, cookie: string, photo: Buffer): Promise<number> {
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
 * Asks `url` every 20 ms from a child process until stopped (ready once its first, cold request
 * is answered); `stop` resolves with the slowest answer after that, in ms.
 */
function healthProbe(url: string) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `let worst = 0, on = true;
      process.stdin.on('data', () => { on = false; }).resume();
      const ask = () => fetch(${JSON.stringify(url)}).then((r) => r.arrayBuffer()).catch(() => {});
      (async () => {
        await ask();
        process.stdout.write('ready ');
        while (on) {
          const asked = performance.now();
          await ask();
          worst = Math.max(worst, performance.now() - asked);
          await new Promise((r) => setTimeout(r, 20));
        }
        process.stdout.write(String(worst));
        process.exit(0);
      })();`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', () => output.startsWith('ready') && resolve()),
  );
  return {
    ready,
    async stop() {
      child.stdin.end('stop');
      await exited;
      return Number(output.slice('ready '.length));
    },
  };
}

/**
 * The resident memory of `pid` around UPLOADS concurrent uploads, after one upload has warmed the
 * code paths and buffers: growth is measured 2 s after the last answer.
 */
async function measure(pid: number, url: string, cookies: string[]) {
  await upload(url, cookies[0]!, PHOTOS[UPLOADS]!);
  await new Promise((r) => setTimeout(r, 500));
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  // The slowest /healthz during the batch: what a load balancer's probe sees meanwhile, asked
  // from a process of its own so that the uploading client's busy event loop is not counted.
  const probe = healthProbe(new URL('/healthz', url).href);
  await probe.ready;
  const started = performance.now();
  const answered: number[] = [];
  const statuses = await Promise.all(
    cookies.map(async (cookie, i) => {
      const status = await upload(url, cookie, PHOTOS[i]!);
      answered.push((performance.now() - started) / 1000);
      return status;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The hashes are made after the answers (decisions 086, 087): memory and /healthz are watched
  // for 2 s more, while they finish.
  await new Promise((r) => setTimeout(r, 2000));
  const worstHealthMs = await probe.stop();
  clearInterval(sampler);
  const after = rssMb(pid);
  return {
    growth: after - before,
    peak: Math.max(peak, after) - before,
    statuses,
    seconds,
    answerP50: median(answered),
    answerMax: Math.max(...answered),
    worstHealthMs,
    stored: -1,
    hashed: -1,
  };
}

async function cardbridge() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-bench-uploads-'));
  const server = await startBuiltServer({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    LIMIT_SIGNUPS_PER_ADDRESS: '1000',
  });
  const { base } = server;
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
  const result = await measure(server.process.pid!, `${base}/api/upload-card-image`, cookies);
  await server.stop();
  // Every card photo is a file in storage and a row with its perceptual hash (the warm-up's too).
  const files = readdirSync(path.join(dataDir, 'objects', 'cards'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  const { rows } = await database.pool.query<{ rows: number; hashed: number }>(
    "select count(*)::int as rows, count(perceptual_hash)::int as hashed from uploads where kind = 'card'",
  );
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  const stored = Math.min(files.length, rows[0]!.rows);
  return { ...result, stored: stored - 1, hashed: rows[0]!.hashed - 1 };
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
  await waitUntilAnswering(base, server);
  const result = await measure(server.pid!, base, Array(UPLOADS).fill(''));
  await stopProcess(server);
  return result;
}

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
const totalMb = PHOTOS.slice(0, UPLOADS).reduce((sum, p) => sum + p.length, 0) / 2 ** 20;
console.log(
  `${UPLOADS} concurrent uploads of real photos (${totalMb.toFixed(0)} MB in all), ${RUNS} runs each (median; all runs)`,
);
for (const { name, runs } of rows) {
  const growth = runs.map((r) => r.growth);
  const peak = runs.map((r) => r.peak);
  const statuses = [...new Set(runs.flatMap((r) => r.statuses))].join(', ');
  const seconds = median(runs.map((r) => r.seconds));
  const p50 = median(runs.map((r) => r.answerP50));
  const max = median(runs.map((r) => r.answerMax));
  const healthz = median(runs.map((r) => r.worstHealthMs));
  const kept =
    runs[0]!.stored >= 0
      ? `; stored ${runs.map((r) => r.stored).join(', ')}, hashed ${runs.map((r) => r.hashed).join(', ')} of ${UPLOADS}`
      : '';
  console.log(
    `${name.padEnd(60)} peak RSS growth +${median(peak).toFixed(1)} MB (${peak.map((g) => g.toFixed(0)).join(', ')}), 2 s after ${median(growth).toFixed(1)} MB (${growth.map((g) => g.toFixed(0)).join(', ')}); all ${UPLOADS} in ${seconds.toFixed(2)} s (${(totalMb / seconds).toFixed(0)} MB/s, answer p50 ${p50.toFixed(2)} s, max ${max.toFixed(2)} s; worst /healthz ${healthz.toFixed(0)} ms); statuses ${statuses}${kept}`,
  );
}
const ours = rows[0]!.runs;
const peakMet = median(ours.map((r) => r.peak)) <= TARGET_PEAK_MB;
const allKept = ours.every((r) => r.stored === UPLOADS && r.hashed === UPLOADS);
console.log(
  `target: peak growth at most ${TARGET_PEAK_MB} MB: ${peakMet ? 'met' : 'not met'}; every upload stored and hashed: ${allKept ? 'yes' : 'no'}`,
);
process.exit(ours.every((r) => r.statuses.every((s) => s === 200)) && allKept ? 0 : 1);

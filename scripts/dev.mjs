// Development: the API under tsx watch on API_PORT, then, once it answers, Vite (with its proxy)
// on PORT. Starting Vite only when the API is up means no proxy errors while tsx compiles, and
// the staff account a first start prints is shown again after Vite's banner, where it is seen.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '5001';
const children = [];
// Set by a signal or a child's exit: the wait for the API ends too. (A child killed by a signal
// has no exit code, so waiting on `exitCode` alone looped forever after a SIGTERM to the group.)
let stopping = false;
const stop = () => {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

function start(command, args, env) {
  const child = spawn(command, args, {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
  return child;
}

let firstStart = '';
const api = start('npx', ['tsx', 'watch', 'src/server/main.ts'], {
  PORT: apiPort,
  HOST: '127.0.0.1',
});
api.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const text = chunk.toString();
  const block = text.match(/First start: a staff account[\s\S]*?shown only once[^\n]*/);
  if (block) firstStart = block[0];
});

const apiUrl = `http://127.0.0.1:${apiPort}/api/auth/user`;
for (let answered = false; !answered && !stopping; ) {
  answered = await fetch(apiUrl).then(
    () => true,
    () => false,
  );
  if (!answered) await new Promise((r) => setTimeout(r, 200));
}

if (!stopping) {
  const vite = start('npx', ['vite'], { API_PORT: apiPort });
  vite.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (firstStart && /Local:/.test(chunk.toString())) {
      process.stdout.write(`\n${firstStart}\n\n`);
      firstStart = '';
    }
  });
}

// Development: the API under tsx watch on API_PORT, and Vite (with its proxy) on PORT.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '5001';
const children = [
  spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, HOST: '127.0.0.1' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });

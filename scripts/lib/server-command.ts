import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The arguments `npm start` gives node (package.json's start script: `exec node [flags]
 * dist/server/main.js`), in this checkout or in `checkout`. The benchmarks and the cluster tests
 * start the built server with exactly these, so they measure the server as it runs in production.
 */
export function serverArgs(checkout = '.'): string[] {
  const start: string = JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8'))
    .scripts.start;
  // `exec` makes the shell npm starts become node, so a SIGTERM to npm reaches the server.
  const [exec, command, ...args] = start.trim().split(/\s+/);
  if (exec !== 'exec' || command !== 'node' || args.at(-1) !== 'dist/server/main.js') {
    throw new Error(`npm start should be "exec node [flags] dist/server/main.js", not "${start}"`);
  }
  // A profile of the server under a benchmark: SERVER_PROFILE_DIR=/tmp/p writes a .cpuprofile
  // there when the server stops (node's --cpu-prof).
  const profileDir = process.env.SERVER_PROFILE_DIR;
  if (profileDir) args.splice(-1, 0, '--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  return args;
}

/** The node flags of `npm start`, without the server file. */
export const serverFlags = () => serverArgs().slice(0, -1);

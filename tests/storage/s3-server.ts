import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { S3Config } from '../../src/server/config';

/** s3rver's built-in account. */
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  /** What S3Storage (config.s3) needs to use the server's one bucket. */
  config: S3Config;
  /** The same as S3_* variables, for a spawned server process. */
  env: Record<string, string>;
  /** Method and URL of every request the server has received, oldest first. */
  requests: string[];
  /** The listening HTTP server (to watch requests as they arrive). */
  http: Server;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, files in a temporary folder) on 127.0.0.1 and a random port,
 * with one empty bucket.
 */
export async function startS3Server(bucket = 'cardbridge-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'cb-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
    // s3rver signs bucket requests (list, head) as /bucket where the SDK signs /bucket/, so it
    // would refuse them all; it still refuses an unknown access key.
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  const requests: string[] = [];
  server.httpServer!.on('request', (request: IncomingMessage) => {
    requests.push(`${request.method} ${request.url}`);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    config: { bucket, endpoint, region: 'us-east-1', credentials: KEYS, forcePathStyle: true },
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEYS.accessKeyId,
      S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    requests,
    http: server.httpServer!,
    async stop() {
      if (stopped) return;
      stopped = true;
      const closed = server.close();
      // Kept-alive connections from the SDK would hold close() open.
      server.httpServer!.closeAllConnections();
      await closed;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

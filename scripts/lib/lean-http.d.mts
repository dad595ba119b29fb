export interface LeanClient {
  /**
   * Sends a request when a connection is free. `headers` holds the extra header lines
   * ('cookie: …\r\n'); `done` gets the answer's status and ETag, or status 0 when the
   * connection failed.
   */
  request(
    method: string,
    path: string,
    headers: string,
    body: string | undefined,
    done: (status: number, etag: string | undefined) => void,
  ): void;
  close(): void;
}

/** A client for `base` (http://host:port), at most `maxSockets` connections. */
export function leanClient(options: { base: string; maxSockets: number }): LeanClient;

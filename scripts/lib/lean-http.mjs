// An HTTP/1.1 client for the soak's load generator (docs/decisions/092): keep-alive sockets, one
// request at a time on each, up to `maxSockets`, then a queue, as node:http's Agent does, but
// without its per-request objects and events. The generator shares the machine's cores with the
// server it measures, so what it spends on itself is taken from the server. It reads only what
// the soak needs of an answer: the status, the ETag and where the body ends (Content-Length, or
// chunked). Plain JavaScript, so the generator's processes start with node alone (fork).
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A client for `base` (http://host:port). `request(method, path, headers, body, done)`:
 * `headers` is the request's extra header lines as one string ('cookie: …\r\n'), `done(status,
 * etag)` is called once with the answer's status and ETag, or with status 0 when the connection
 * failed.
 */
export function leanClient({ base, maxSockets }) {
  const url = new URL(base);
  const host = url.hostname;
  const port = Number(url.port);
  const idle = [];
  const queue = [];
  let open = 0;

  /** A socket and the request on it: `item` is null while it waits in `idle`. */
  const connect = () => {
    open++;
    const connection = {
      socket: net.connect({ host, port, noDelay: true }),
      item: null,
      buffer: null,
    };
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      connection.socket.destroy();
      open--;
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      const item = connection.item;
      connection.item = null;
      if (item) item.done(0, undefined);
      next();
    };
    connection.socket.on('data', (chunk) => onData(connection, chunk));
    connection.socket.on('error', onLost);
    connection.socket.on('close', onLost);
    return connection;
  };

  const next = () => {
    while (queue.length > 0) {
      const connection = idle.pop() ?? (open < maxSockets ? connect() : undefined);
      if (!connection) return;
      const item = queue.shift();
      connection.item = item;
      connection.socket.write(item.bytes);
    }
  };

  const onData = (connection, chunk) => {
    const item = connection.item;
    if (!item) return; // bytes after an answer we did not ask for: ignored
    const buffer = connection.buffer ? Buffer.concat([connection.buffer, chunk]) : chunk;
    const end = buffer.indexOf(HEADER_END);
    if (end < 0) {
      connection.buffer = buffer;
      return;
    }
    const head = buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const etag = headerValue(head, lower, 'etag');
    const length = headerValue(head, lower, 'content-length');
    const bodyStart = end + 4;
    let complete;
    if (length !== undefined) complete = buffer.length - bodyStart >= Number(length);
    else if (lower.includes('\r\ntransfer-encoding: chunked'))
      complete = buffer.indexOf('\r\n0\r\n\r\n', bodyStart - 2) >= 0;
    else complete = true; // 304 and 204 carry no body
    if (!complete) {
      connection.buffer = buffer;
      return;
    }
    connection.buffer = null;
    connection.item = null;
    idle.push(connection);
    item.done(status, etag);
    next();
  };

  return {
    request(method, path, headers, body, done) {
      const bytes =
        body === undefined
          ? `${method} ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${headers}\r\n`
          : `${method} ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${headers}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      queue.push({ bytes, done });
      next();
    },
    close() {
      for (const connection of idle) connection.socket.destroy();
    },
  };
}

function headerValue(head, lower, name) {
  const at = lower.indexOf(`\r\n${name}:`);
  if (at < 0) return undefined;
  const start = at + name.length + 3;
  const end = head.indexOf('\r\n', start);
  return head.slice(start, end < 0 ? undefined : end).trim();
}

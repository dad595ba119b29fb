// One process of `npm run bench:streams`: it holds its share of the open /api/events streams and
// reports, for each broadcast the parent announces, when each stream received it (epoch ms).
// Plain JavaScript, so it starts with node alone (fork).
import http from 'node:http';

const streams = [];
let opened = 0;
let failed = 0;
/** For the broadcast being measured: the topic, and the arrival time on each stream. */
let waitingFor = null;
let arrivals = [];

function open(base, cookie) {
  const url = new URL(`${base}/api/events`);
  return new Promise((resolve) => {
    const request = http.get(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { cookie } },
      (response) => {
        if (response.statusCode !== 200) {
          failed++;
          response.resume();
          return resolve();
        }
        response.setEncoding('utf8');
        let buffer = '';
        let ready = false;
        response.on('data', (chunk) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/m.exec(message)?.[1];
            if (event === 'ready' && !ready) {
              ready = true;
              opened++;
              resolve();
            } else if (waitingFor && event === waitingFor) {
              arrivals.push(Date.now());
            }
            end = buffer.indexOf('\n\n');
          }
        });
      },
    );
    request.on('error', () => {
      failed++;
      resolve();
    });
    streams.push(request);
  });
}

process.on('message', async (message) => {
  if (message.type === 'open') {
    // Opened a few hundred at a time, as pages open over a few seconds, not in one burst.
    for (let i = 0; i < message.cookies.length; i += 200) {
      await Promise.all(message.cookies.slice(i, i + 200).map((c) => open(message.base, c)));
    }
    process.send({ type: 'opened', opened, failed });
  } else if (message.type === 'expect') {
    waitingFor = message.topic;
    arrivals = [];
    process.send({ type: 'expecting' });
  } else if (message.type === 'collect') {
    process.send({ type: 'arrivals', arrivals, cpu: process.cpuUsage() });
    waitingFor = null;
  } else if (message.type === 'close') {
    for (const request of streams) request.destroy();
    process.exit(0);
  }
});

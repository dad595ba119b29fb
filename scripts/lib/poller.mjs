// One process of the soak's load generator (scripts/bench-load.ts --soak): it polls as its share
// of the customers' browsers do, at the spec's intervals with their ETags, then sends back every
// answer and the CPU it used. Plain JavaScript, so it starts with node alone (fork).
import http from 'node:http';

process.once('message', async ({ base, cookies, polls, seconds, startAt }) => {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const etags = new Map();
  /** Every answer: when its request was sent (ms into the soak), how long it took, what it was. */
  const answers = [];
  const statuses = {};
  let networkErrors = 0;
  // Every process starts at the same moment (the parent's clock, sent as an epoch time).
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
  const origin = performance.now();

  const poll = (customer, path) => {
    const key = `${customer} ${path}`;
    const etag = etags.get(key);
    const started = performance.now();
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        agent,
        headers: { cookie: cookies[customer], ...(etag ? { 'if-none-match': etag } : {}) },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode;
          statuses[status] = (statuses[status] ?? 0) + 1;
          const kind =
            status === 304 ? 'unchanged' : status !== 200 ? 'error' : etag ? 'changed' : 'first';
          answers.push([started - origin, performance.now() - started, kind]);
          if (response.headers.etag) etags.set(key, response.headers.etag);
        });
      },
    );
    request.on('error', () => {
      networkErrors++;
    });
    request.end();
  };

  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const timers = [];
  for (let customer = 0; customer < cookies.length; customer++) {
    for (const { path, everyMs } of polls) {
      // Each browser opened its page at its own moment.
      timers.push(
        setTimeout(() => {
          poll(customer, path);
          timers.push(setInterval(() => poll(customer, path), everyMs));
        }, Math.random() * everyMs),
      );
    }
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
  for (const timer of timers) clearInterval(timer);
  await new Promise((r) => setTimeout(r, 2000)); // the last answers
  const cpu = process.cpuUsage(cpuStart);
  const busy = (cpu.user + cpu.system) / 1000 / (performance.now() - wallStart);
  process.send({ answers, statuses, networkErrors, busy }, () => process.exit(0));
});

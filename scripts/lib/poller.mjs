// One process of the soak's load generator (scripts/bench-load.ts --soak): it polls as its share
// of the customers' browsers do, at the spec's intervals with their ETags, then sends back every
// answer and the CPU it used. Plain JavaScript, so it starts with node alone (fork).
import { leanClient } from './lean-http.mjs';

process.once('message', async ({ base, cookies, polls, seconds, startAt }) => {
  const client = leanClient({ base, maxSockets: 256 });
  const etags = new Map();
  /**
   * Every answer: when its request was sent (ms into the soak), how long it took, what it was, and
   * which of `polls` it answered.
   */
  const answers = [];
  const statuses = {};
  let networkErrors = 0;
  /** The polls sent and not answered yet, and the ticks skipped because of them. */
  const out = new Set();
  let skipped = 0;
  // Every process starts at the same moment (the parent's clock, sent as an epoch time).
  await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
  const origin = performance.now();

  const poll = (customer, which) => {
    const { path } = polls[which];
    const key = `${customer} ${path}`;
    // As the browser's TanStack Query does: an interval's tick while the last request of that
    // query is still out sends nothing (Query.fetch returns the fetch in flight).
    if (out.has(key)) {
      skipped++;
      return;
    }
    out.add(key);
    const etag = etags.get(key);
    const started = performance.now();
    const headers = `cookie: ${cookies[customer]}\r\n${etag ? `if-none-match: ${etag}\r\n` : ''}`;
    client.request('GET', path, headers, undefined, (status, answerEtag) => {
      out.delete(key);
      if (status === 0) {
        networkErrors++;
        return;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      const kind =
        status === 304 ? 'unchanged' : status !== 200 ? 'error' : etag ? 'changed' : 'first';
      answers.push([started - origin, performance.now() - started, kind, which]);
      if (answerEtag) etags.set(key, answerEtag);
    });
  };

  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const timers = [];
  for (let customer = 0; customer < cookies.length; customer++) {
    for (const [which, { everyMs }] of polls.entries()) {
      // Each browser opened its page at its own moment.
      timers.push(
        setTimeout(() => {
          poll(customer, which);
          timers.push(setInterval(() => poll(customer, which), everyMs));
        }, Math.random() * everyMs),
      );
    }
  }
  // `seconds`, or until the parent sends 'stop' (bench:partner polls for as long as it runs).
  await new Promise((r) => {
    setTimeout(r, seconds * 1000);
    process.on('message', (message) => message === 'stop' && r());
  });
  for (const timer of timers) clearInterval(timer);
  await new Promise((r) => setTimeout(r, 2000)); // the last answers
  client.close();
  const cpu = process.cpuUsage(cpuStart);
  const busy = (cpu.user + cpu.system) / 1000 / (performance.now() - wallStart);
  process.send({ answers, statuses, networkErrors, skipped, busy }, () => process.exit(0));
});

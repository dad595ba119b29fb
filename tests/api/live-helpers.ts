/** A server-sent-events stream read as a browser's EventSource would, for tests. */
export interface EventStream {
  response: Response;
  /** Event names in the order they arrived. */
  names(): string[];
  /** Resolves once an event of that name has arrived (now or before), within `timeoutMs`. */
  waitFor(name: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

export async function openEvents(base: string, cookie: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
  const names: string[] = [];
  const waiters: { name: string; resolve: () => void }[] = [];
  let finished = false;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = block.match(/^event: (.+)$/m)?.[1];
          if (name) {
            names.push(name);
            for (const w of waiters.filter((w) => w.name === name)) w.resolve();
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    }
    finished = true;
  })();
  // The first event says the stream is subscribed.
  await new Promise<void>((resolve, reject) => {
    if (names.includes('ready')) return resolve();
    waiters.push({ name: 'ready', resolve });
    setTimeout(() => reject(new Error('no ready event')), 2000);
  });
  return {
    response,
    names: () => [...names],
    waitFor(name, timeoutMs = 1000) {
      if (names.includes(name)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiters.push({ name, resolve });
        setTimeout(
          () =>
            reject(
              new Error(`no "${name}" event within ${timeoutMs} ms (got ${names.join(', ')})`),
            ),
          timeoutMs,
        );
      });
    },
    ended,
    isEnded: () => finished,
    close: () => controller.abort(),
  };
}

/** A server-sent-events stream read as a browser's EventSource would, for tests. */
export interface EventStream {
  response: Response;
  /** Event names in the order they arrived. */
  names(): string[];
  /**
   * Resolves once an event of that name has arrived (now or before); rejects if the stream ends
   * first. No clock of its own: a test that waits in vain fails at the test's timeout.
   */
  waitFor(name: string): Promise<void>;
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
  const waiters: { name: string; resolve: () => void; reject: (error: Error) => void }[] = [];
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
    for (const w of waiters.filter((w) => !names.includes(w.name))) {
      w.reject(new Error(`the stream ended before a "${w.name}" event (got ${names.join(', ')})`));
    }
  })();
  const waitFor = (name: string) => {
    if (names.includes(name)) return Promise.resolve();
    if (finished) return Promise.reject(new Error(`the stream ended (got ${names.join(', ')})`));
    return new Promise<void>((resolve, reject) => {
      waiters.push({ name, resolve, reject });
    });
  };
  // The first event says the stream is subscribed.
  await waitFor('ready');
  return {
    response,
    names: () => [...names],
    waitFor,
    ended,
    isEnded: () => finished,
    close: () => controller.abort(),
  };
}

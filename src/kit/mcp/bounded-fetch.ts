// fetch for an HTTP upstream whose answers are bounded: a JSON answer past `max` bytes, or one
// server-sent event past it, errors the body stream instead of being buffered without end (the
// SDK reads both whole). The request then fails for that upstream alone, like a dropped connection.
const LF = 0x0a;

class MessageTooLargeError extends Error {
  constructor(url: string, max: number) {
    super(`${url} sent a message larger than ${max} bytes; mcphost refused it`);
    this.name = 'MessageTooLargeError';
  }
}

/** Counts a JSON body whole, an event stream per event (bytes since the last blank line). */
function limiter(max: number, url: string, perEvent: boolean): TransformStream<Uint8Array, Uint8Array> {
  let held = 0;
  let lastWasLf = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (!perEvent) {
        held += chunk.length;
      } else {
        // An event ends at an empty line: two line feeds in a row (a `\r` before each is allowed).
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i];
          if (byte === LF) {
            if (lastWasLf) held = 0;
            lastWasLf = true;
          } else if (byte !== 0x0d) {
            lastWasLf = false;
            held++;
          }
          if (held > max) break;
        }
      }
      if (held > max) controller.error(new MessageTooLargeError(url, max));
      else controller.enqueue(chunk);
    },
  });
}

export function boundedFetch(max: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = response.body.pipeThrough(limiter(max, url, type.includes('text/event-stream')));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

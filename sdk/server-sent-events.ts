/** One dispatched Server-Sent Event: its `event` name (`message` when none was given) and its data. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, as the HTML standard parses them: lines end with LF,
 * CRLF or CR; `event:` names the event, `data:` lines are joined with LF, a blank line dispatches,
 * `:` starts a comment (heartbeats). `id` and `retry` are ignored: nothing here reconnects by
 * itself. Browser-safe: a ReadableStream reader and a TextDecoder.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // What is left is an unfinished line: at the end of the stream, an event never dispatched.
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // A CR at the very end may be the first half of a CRLF: it waits for the next chunk.
      const lines = buffer.split(/\r\n|\r(?!$)|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  } finally {
    // Also when the loop stops early (break, an error): the connection is given up.
    await reader.cancel().catch(() => {});
  }
}

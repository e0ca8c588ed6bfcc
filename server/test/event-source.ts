import http from 'node:http';

export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/** The blocks of an event stream, comments left out, each as its fields. */
export function parseStream(text: string): SseEvent[] {
  const blocks: SseEvent[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const fields: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon) as keyof SseEvent;
      fields[name] = line.slice(colon + 1).replace(/^ /, '');
    }
    if (Object.keys(fields).length > 0) blocks.push(fields);
  }
  return blocks;
}

/**
 * Enough of the browser's EventSource for the SDK in Node (which has none): named events, `id:` remembered
 * and sent back as `Last-Event-ID` when it reconnects after the `retry:` delay, `onopen`/`onerror`, `close()`.
 */
export class TestEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = TestEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private lastEventId = '';
  private retryMs = 1_000;
  private request: http.ClientRequest | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Map<string, Set<(event: { type: string; data: string }) => void>>();

  constructor(readonly url: string) {
    this.open();
  }

  addEventListener(type: string, fn: (event: { type: string; data: string }) => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }

  removeEventListener(type: string, fn: (event: { type: string; data: string }) => void): void {
    this.listeners.get(type)?.delete(fn);
  }

  close(): void {
    this.readyState = TestEventSource.CLOSED;
    if (this.timer) clearTimeout(this.timer);
    this.request?.destroy();
  }

  private open(): void {
    let dropped = false;
    const drop = () => {
      if (dropped || this.readyState === TestEventSource.CLOSED) return;
      dropped = true;
      this.readyState = TestEventSource.CONNECTING;
      this.onerror?.();
      this.timer = setTimeout(() => this.open(), this.retryMs);
    };
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    this.request = http.get(this.url, { headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.readyState = TestEventSource.CLOSED;
        this.onerror?.();
        return;
      }
      this.readyState = TestEventSource.OPEN;
      this.onopen?.();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      });
      res.on('close', drop);
    });
    this.request.on('error', drop);
  }

  private dispatch(block: string): void {
    const [event] = parseStream(`${block}\n\n`);
    if (!event) return;
    if (event.retry !== undefined && /^\d+$/.test(event.retry)) this.retryMs = Number(event.retry);
    if (event.id !== undefined) this.lastEventId = event.id;
    if (event.data === undefined) return;
    const type = event.event ?? 'message';
    for (const fn of this.listeners.get(type) ?? []) fn({ type, data: event.data });
  }
}

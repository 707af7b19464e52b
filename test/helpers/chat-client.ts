import WebSocket from 'ws';

export interface Frame {
  type: string;
  [key: string]: any;
}

/** A real WebSocket client that queues the frames it receives, for tests to take one by one. */
export class ChatClient {
  readonly ws: WebSocket;
  private readonly frames: Frame[] = [];
  private waiting?: () => void;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()));
      this.waiting?.();
    });
    this.ws.on('close', () => this.waiting?.());
  }

  /** The next frame (fails when the socket closes first or nothing comes within timeoutMs). */
  async next(timeoutMs = 30_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (!this.frames.length) {
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('socket closed while waiting for a frame');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no frame within the timeout');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    return this.frames.shift()!;
  }

  /** The next n frames. */
  async take(n: number): Promise<Frame[]> {
    const out: Frame[] = [];
    for (let i = 0; i < n; i++) out.push(await this.next());
    return out;
  }

  /** Frames until one of the given type (included). */
  async until(type: string): Promise<Frame[]> {
    const out: Frame[] = [];
    for (;;) {
      const f = await this.next();
      out.push(f);
      if (f.type === type) return out;
    }
  }

  /** Frames already received and not yet taken. */
  pending(): Frame[] {
    return [...this.frames];
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  say(text: string): void {
    this.send({ type: 'message', message: text });
  }

  close(): void {
    this.ws.close();
  }
}

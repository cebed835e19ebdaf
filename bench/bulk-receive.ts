// The big page's client: one request on a socket of its own, read into one reused buffer and not
// kept, as a client that writes the page to a file or a parser reads it. node:http allocates each
// 64 KB it reads: on this machine a fresh allocation costs a page fault per 4 KB, so receiving 97 MB
// that way took the client 0.45-0.87 s alone, while curl received the same page in 0.25-0.4 s
// (2026-11-27, the 10M catalogue). The timing then measured the client, not the service.
import net from 'node:net';

export interface BulkAnswer {
  status: number;
  /** The response's first bytes: its status line and headers. */
  head: string;
  /** The response's last bytes: where a list's footer (`"total":...`) is. */
  tail: string;
  /** performance.now() when the server closed the connection after the last byte. */
  receivedAt: number;
}

const TAIL_BYTES = 4096;

export function receiveBulk(base: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<BulkAnswer> {
  const url = new URL(base);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`, `host: ${url.host}`, 'connection: close',
    ...Object.entries({ ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) }).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    let first = '';
    const HEAD_BYTES = 4096;
    let tail = Buffer.alloc(0);
    const readBuffer = Buffer.allocUnsafe(1 << 20);
    const socket = net.connect({
      host: url.hostname, port: Number(url.port),
      onread: {
        buffer: readBuffer,
        callback(n) {
          if (first.length < HEAD_BYTES) first += readBuffer.toString('latin1', 0, Math.min(n, HEAD_BYTES - first.length));
          tail = Buffer.concat([tail, readBuffer.subarray(Math.max(0, n - TAIL_BYTES), n)]).subarray(-TAIL_BYTES);
          return true;
        },
      },
    });
    socket.on('connect', () => socket.write(`${head}\r\n\r\n${payload}`));
    socket.on('error', reject);
    socket.on('close', () => {
      const receivedAt = performance.now();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(first)?.[1] ?? 0);
      resolve({ status, head: first.split('\r\n\r\n')[0]!, tail: tail.toString('utf8'), receivedAt });
    });
  });
}

/** A list's entries from its footer: the page holds the total's rest past the offset, at most the limit. */
export function entriesOfList(tail: string): number {
  const footer = /"total":(\d+),"limit":(\d+),"offset":(\d+)/.exec(tail);
  if (!footer) throw new Error(`no list footer in the response's last bytes: ${tail.slice(-200)}`);
  const [total, limit, offset] = footer.slice(1).map(Number) as [number, number, number];
  return Math.max(0, Math.min(limit, total - offset));
}

// The benchmark's HTTP client: one keep-alive connection on node:http, the body read whole and
// decompressed as clients do. Lighter than `fetch` (undici), whose own cost the timings would
// otherwise include: on 2026-11-23, 150 requests each way in turns against the 1M DuckDB demo
// (load 0.6-1.1), `/healthz` took 1.27 ms p50 with fetch and 0.92 ms with this; a year of
// encounters 27.3 and 22.4 ms (docs/performance.md, "What the service adds").
import http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface HttpAnswer {
  status: number;
  text: string;
}

const DECODERS: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  br: promisify(zlib.brotliDecompress),
  deflate: promisify(zlib.inflate),
};

export function httpClient(base: string, defaultHeaders: Record<string, string>): (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpAnswer> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, body, headers = {}) => new Promise<HttpAnswer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request({ host: url.hostname, port: url.port, method, path, agent, headers: { ...defaultHeaders, ...headers, ...(payload === undefined ? {} : { 'content-length': Buffer.byteLength(payload) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const decode = DECODERS[String(res.headers['content-encoding'] ?? '')];
        (decode ? decode(raw) : Promise.resolve(raw)).then((b) => resolve({ status: res.statusCode!, text: b.toString('utf8') }), reject);
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

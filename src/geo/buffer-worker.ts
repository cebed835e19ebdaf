// The buffer worker thread (started by buffer-thread.ts): buffers one request at a time, off the
// main thread, so a costly geometry never stops the server.
import { parentPort } from 'node:worker_threads';
import { bufferPolygons, type BufferOperation, type BufferUnit } from './buffer.ts';
import type { Polygon } from './geojson.ts';

export type BufferJob = { polygons: Polygon[]; value: number; unit: BufferUnit; operation: BufferOperation };
export type BufferAnswer = { ok: true; polygons: Polygon[] } | { ok: false; error: string };

const port = parentPort!;
port.on('message', (job: BufferJob) => {
  let answer: BufferAnswer;
  try {
    answer = { ok: true, polygons: bufferPolygons(job.polygons, job.value, job.unit, job.operation) };
  } catch (e) {
    answer = { ok: false, error: (e as Error).message };
  }
  port.postMessage(answer);
});
// Loading turf takes a while: the deadline of the first job starts once this is posted.
port.postMessage('ready');

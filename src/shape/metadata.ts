// The echo of a normalised query (docs/api.md, "List": `metadata` says what the service
// understood). It walks every member of the query, so a filter added to EventQuery appears here
// and in the ETag (src/http/caching.ts) without a second list of filters to keep in step; only the
// members whose stored form is unreadable (dataset references, epoch milliseconds, polygons) are
// rendered.
import { createHash } from 'node:crypto';
import { resolvedName, type ResolvedDataset } from '../query/datasets.ts';
import type { AreaFilter, EventQuery, ListQuery, TimeWindow } from '../query/types.ts';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const hours = (ms: number | undefined) => (ms === undefined ? undefined : ms / 3_600_000);

function echoArea(area: AreaFilter): unknown {
  if (area.type === 'regions') return area;
  const { polygons, ...described } = area;
  // The polygons can hold thousands of vertices (a buffered EEZ): they are summed up, and their
  // digest stands for them, so two different shapes never echo (or cache) alike.
  return {
    ...described,
    polygons: polygons.length,
    vertices: polygons.reduce((n, p) => n + p.reduce((m, ring) => m + ring.length, 0), 0),
    digest: createHash('sha256').update(JSON.stringify(polygons)).digest('base64url').slice(0, 22),
  };
}

const RENDER: { [K in keyof ListQuery]?: (value: NonNullable<ListQuery[K]>) => unknown } = {
  datasets: (datasets: ResolvedDataset[]) => datasets.map(resolvedName),
  time: (t: TimeWindow) => ({ startDate: iso(t.startMs), endDate: iso(t.endMs), timeFilterMode: t.mode }),
  duration: (d) => ({ minHours: hours(d.minMs), maxHours: hours(d.maxMs) }),
  area: echoArea,
};

/** Every member of the normalised query, in JSON-ready form; undefined members are left out. */
export function echoQuery(q: EventQuery | ListQuery): Record<string, unknown> {
  const echoed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(q)) {
    // The plan is the engines' reading of the other members, not something the client asked.
    if (value === undefined || key === 'filters') continue;
    const render = RENDER[key as keyof ListQuery] as ((v: unknown) => unknown) | undefined;
    echoed[key] = render ? render(value) : value;
  }
  return echoed;
}

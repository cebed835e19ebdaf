// Seeded random queries over every non-spatial filter, for the differential tests of the list and
// of the statistics: each is both an HTTP request (random spellings and array forms, GET or POST)
// and the reference query it means.
import { Random } from '../../src/data/demo/random.ts';
import { ENCOUNTER_TYPES, VESSEL_TYPES } from '../../src/query/enumerations.ts';
import type { Fixture } from './fixture.ts';
import type { ReferenceListQuery } from './reference.ts';

const DATASETS: [string, string][] = [
  ['public-global-fishing-events', 'fishing'], ['public-global-encounters-events', 'encounter'], ['public-global-encounter-events', 'encounter'],
  ['public-global-loitering-events', 'loitering'], ['public-global-port-visits-events', 'port_visit'], ['public-global-port-visits-c2-events', 'port_visit'],
  ['public-global-gaps-events', 'gap'],
];
const ARRAY_PARAMS = new Set(['datasets', 'vessels', 'ids', 'types', 'flags', 'vesselTypes', 'vesselGroups', 'confidences', 'encounterTypes', 'isClosed', 'portIds', 'nextPortIds', 'includes']);
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export interface Generated {
  method: 'GET' | 'POST';
  params: Record<string, unknown>;
  paging: { limit: number; offset: number; sort: ReferenceListQuery['sort'] };
  reference: ReferenceListQuery;
}

function pool<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

export function generate(r: Random, fixture: Fixture): Generated {
  const records = fixture.records;
  const method = r.chance(0.5) ? 'GET' : 'POST';
  const params: Record<string, unknown> = {};
  const ref: Partial<ReferenceListQuery> = {};
  const some = <T>(values: T[], max: number) => pool(Array.from({ length: r.int(1, max) }, () => r.pick(values)));
  const op = (name: string): 'INCLUDE' | 'EXCLUDE' => {
    const value = r.pick(['INCLUDE', 'EXCLUDE', undefined] as const);
    if (value) params[`${name}Operator`] = r.chance(0.3) ? value.toLowerCase() : value;
    return value ?? 'INCLUDE';
  };

  const chosen = DATASETS.filter(() => r.chance(0.45));
  if (chosen.length === 0) chosen.push(r.pick(DATASETS));
  params['datasets'] = chosen.map(([id]) => `${id}:${r.pick(['latest', 'v20240101'])}`);
  ref.kinds = pool(chosen.map(([, kind]) => kind));

  if (r.chance(0.15)) ref.vesselIds = params['vessels'] = some(records.map((x) => x.vessel.id), 3);
  if (r.chance(0.05)) ref.eventIds = params['ids'] = some(records.map((x) => x.id), 6);
  if (r.chance(0.2)) {
    const values = some(['ENCOUNTER', 'FISHING', 'LOITERING', 'GAP_START', 'GAP', 'PORT_VISIT'] as const, 2);
    params['types'] = values;
    ref.types = { values, operator: op('types') };
  }
  if (r.chance(0.3)) {
    const values = some(['CHN', 'ESP', 'TWN', 'RUS', 'KOR', 'USA', 'SEN', 'JPN', 'XXX'], 3);
    params['flags'] = r.chance(0.3) ? values.map((f) => f.toLowerCase()) : values;
    ref.flags = { values, operator: op('flags') };
  }
  if (r.chance(0.2)) {
    const values = some([...VESSEL_TYPES], 2);
    params['vesselTypes'] = values;
    ref.vesselTypes = { values: values.map((v) => v.toLowerCase()), operator: op('vesselTypes') };
  }
  if (r.chance(0.1)) ref.vesselGroups = params['vesselGroups'] = some([...fixture.groups.keys()], 2);
  if (r.chance(0.2)) {
    const values = some(['2', '3', '4'], 2);
    params['confidences'] = values;
    ref.confidences = { values, operator: op('confidences') };
  }
  if (r.chance(0.2)) {
    const stored = pool(records.filter((x) => x.kind === 'encounter').map((x) => String(x.info['type']).toUpperCase()));
    const values = some(r.chance(0.7) ? stored : [...ENCOUNTER_TYPES], 3);
    params['encounterTypes'] = values;
    ref.encounterTypes = { values: values.map((v) => v.toLowerCase()), operator: op('encounterTypes') };
  }
  if (r.chance(0.15)) params['gapIntentionalDisabling'] = ref.gapIntentional = r.chance(0.5);
  if (r.chance(0.15)) {
    const values = some([true, false], 2);
    params['isClosed'] = values;
    if (values.length === 1) ref.gapClosed = values[0]!;
  }
  if (r.chance(0.15)) {
    const ports = pool(records.filter((x) => x.kind === 'port_visit').map((x) => (x.info['intermediate_anchorage'] as { id: string }).id));
    const values = some([...ports, 'nowhere-port'], 3);
    params['portIds'] = values;
    ref.portIds = { values, operator: op('portIds') };
  }
  if (r.chance(0.1)) {
    const values = some(pool(records.flatMap((x) => (x.vessel.next_port?.id ? [x.vessel.next_port.id] : []))), 2);
    params['nextPortIds'] = values;
    ref.nextPortIds = { values, operator: op('nextPortIds') };
  }
  if (r.chance(0.25)) {
    const minH = r.chance(0.7) ? r.pick([0, 0.5, 2, 8, 24]) : undefined;
    const maxH = r.chance(0.5) ? r.pick([1, 6, 12, 48, 1000]) : undefined;
    const durationMin = method === 'POST' && r.chance(0.3) ? r.pick([1, 60, 600]) : undefined;
    const min = Math.max(minH ?? 0, (durationMin ?? 0) / 60);
    if (maxH === undefined || min < maxH) {
      if (minH !== undefined) params['minDuration'] = r.chance(0.3) ? String(minH) : minH;
      if (maxH !== undefined) params['maxDuration'] = maxH;
      if (durationMin !== undefined) params['duration'] = durationMin;
      if (minH !== undefined || maxH !== undefined || durationMin !== undefined) {
        ref.duration = { ...(minH !== undefined || durationMin !== undefined ? { minMs: min * 3_600_000 } : {}), ...(maxH !== undefined ? { maxMs: maxH * 3_600_000 } : {}) };
      }
    }
  }
  ref.time = { mode: 'OVERLAP' };
  if (r.chance(0.7)) {
    const start = Date.UTC(2017, 0, 1) + r.int(0, 7 * 365) * 86_400_000;
    const end = start + r.int(1, 500) * 86_400_000;
    const iso = (ms: number) => (r.chance(0.5) ? new Date(ms).toISOString() : new Date(ms).toISOString().slice(0, 10));
    if (r.chance(0.85)) (params['startDate'] = iso(start)), (ref.time.startMs = start);
    if (r.chance(0.85)) (params['endDate'] = iso(end)), (ref.time.endMs = end);
    if (r.chance(0.6)) {
      const mode = r.pick(['OVERLAP', 'START-DATE', 'END-DATE'] as const);
      params['timeFilterMode'] = r.chance(0.3) ? mode.toLowerCase() : mode;
      ref.time.mode = mode;
    }
  }
  const paging = { limit: r.pick([1, 5, 20, 100, 1000]), offset: r.pick([0, 0, 0, 3, 17, 150, 1000, 4321]), sort: r.pick(['+start', '-start', '+end', '-end'] as const) };
  return { method, params, paging, reference: { ...(ref as ReferenceListQuery), ...paging } };
}

/** GET with random spellings and array forms; POST with camel or hyphenated members. */
export function toRequest(g: Generated, r: Random, path = '/events', extra: Record<string, string | string[]> = {}, withPaging = true): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> } {
  const sort = r.chance(0.5) ? encodeURIComponent(g.paging.sort) : g.paging.sort.replace('+', r.chance(0.5) ? '+' : '');
  const paging = withPaging ? `limit=${g.paging.limit}&offset=${g.paging.offset}&sort=${sort}` : '';
  const params: Record<string, unknown> = { ...g.params, ...extra };
  if (g.method === 'POST') {
    const payload = Object.fromEntries(Object.entries(params).map(([k, v]) => {
      const name = r.chance(0.3) ? kebab(k) : k;
      // gfwr sends booleans as one-element arrays.
      return [name, typeof v === 'boolean' && r.chance(0.5) ? [v] : v];
    }));
    return { method: 'POST', url: `${r.chance(0.5) ? '/v3' : '/api/v3'}${path}${paging ? `?${paging}` : ''}`, payload };
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    const name = r.chance(0.5) ? kebab(k) : k;
    if (ARRAY_PARAMS.has(k)) {
      const values = (v as unknown[]).map(String);
      const form = r.pick(['repeat', 'comma', 'index', 'encoded'] as const);
      if (form === 'comma') parts.push(`${name}=${values.map(encodeURIComponent).join(',')}`);
      else values.forEach((x, i) => parts.push(`${form === 'repeat' ? name : form === 'index' ? `${name}[${i}]` : `${name}%5B${i}%5D`}=${encodeURIComponent(x)}`));
    } else parts.push(`${name}=${encodeURIComponent(String(v))}`);
  }
  return { method: 'GET', url: `/v3${path}?${[...parts, ...(paging ? [paging] : [])].join('&')}` };
}


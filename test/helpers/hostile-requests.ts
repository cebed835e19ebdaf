// Random and hostile requests on every route, from a seed: wrong types, NaN/Infinity strings, NUL
// and other unicode, percent-encoding garbage, duplicate and prototype-named parameters, deep
// nesting, wrong content types, large bodies and geometries, extreme buffers in every unit, unknown
// datasets, regions and groups, path tricks. Used by the property test in `npm test`
// (test/api/hostile-requests.test.ts) and by `npm run fuzz` over real HTTP. `check` states what
// every answer must be, whatever was asked.
import { Random } from '../../src/data/demo/random.ts';
import { BUFFER_UNITS } from '../../src/geo/buffer.ts';
import { DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';

export interface HostileRequest {
  method: 'GET' | 'POST' | 'OPTIONS' | 'DELETE' | 'PUT' | 'HEAD';
  /** As sent on the wire: not normalised, possibly invalid. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const DATASETS = [...Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`), 'public-global-fishing-events:v1', 'public-global-whales:latest', '__proto__', 'valueOf', ':', ''];
const NAMES = [
  'datasets', 'datasets[0]', 'datasets%5B1%5D', 'vessels', 'ids', 'types', 'flags', 'flags-operator', 'vessel-types', 'start-date', 'end-date', 'startDate',
  'time-filter-mode', 'vessel-groups', 'confidences', 'encounter-types', 'gap-intentional-disabling', 'is-closed', 'port-ids', 'next-port-ids', 'min-duration',
  'max-duration', 'region-datasets', 'region-ids', 'buffer-value', 'buffer-unit', 'buffer-operation', 'includes', 'include-regions', 'summary', 'limit', 'offset',
  'sort', 'dataset', 'raw', 'timeseries-interval', 'group-by', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'x'.repeat(300), 'bogus', '', '%00', '💥',
];
const VALUES = [
  '', '0', '1', '-1', '2', '99999', '9999999', '2147483648', '9223372036854775808', '1e309', '-1e309', 'Infinity', '-Infinity', 'NaN', '1.5', '0x10', ' 5 ',
  'true', 'false', 'null', 'undefined', '[]', '{}', 'CHN', 'chn', 'CHINA', 'ESP,CHN', 'FISHING', 'PORT', 'GAP_START', 'INCLUDE', 'EXCLUDE', 'maybe',
  '2020-01-01', '2021-02-30', '2020-01-01T00:00:00.000Z', '9999-12-31', '0000-00-00', 'public-eez-areas', '8371', '8463', '123456789', 'KILOMETERS',
  'DEGREES', 'RADIANS', 'NAUTICALMILES', 'MILES', 'DIFFERENCE', '+start', '-end', 'start', 'MONTH', 'HOUR', 'FLAG', 'REGION_EEZ', 'vessel.name', 'regions.eez',
  '\u0000', '\u0000\u0001\u001f', '%', '%E0%A4%A', '%ZZ', '%00', '💥🐟', '%ED%A0%80', 'a'.repeat(5000), '../../etc/passwd', "'; DROP TABLE events; --", '${x}',
  ...DATASETS,
];
const UNITS = [...BUFFER_UNITS, 'LEAGUES', 'kilometers', ''];
const BUFFERS = [0, 1, -1, 10, 1e3, 2e4, 1e308, -1e308, 180, 181, Math.PI, 4, 0.0001, '1e309', 'Infinity', 'NaN', null, [], {}];

function encodeValue(r: Random, value: string): string {
  // Mostly percent-encoded as a client would; sometimes raw, garbage included.
  return r.chance(0.8) ? encodeURIComponent(value) : value.replace(/[\s#&]/g, '');
}

function ring(r: Random, sides: number, lon: number, lat: number, size: number): number[][] {
  const points = Array.from({ length: sides }, (_, i) => {
    const a = (2 * Math.PI * i) / sides;
    return [lon + size * Math.cos(a) * r.between(0.5, 1), lat + size * Math.sin(a) * r.between(0.5, 1)];
  });
  return [...points, points[0]!];
}

function geometry(r: Random): unknown {
  switch (r.int(0, 9)) {
    case 0: return { type: 'Polygon', coordinates: [ring(r, r.int(3, 200), r.between(-180, 180), r.between(-80, 80), r.between(0.01, 20))] };
    case 1: return { type: 'MultiPolygon', coordinates: Array.from({ length: r.int(1, 5) }, () => [ring(r, 8, r.between(-170, 170), r.between(-60, 60), 2)]) };
    case 2: return { type: 'FeatureCollection', features: Array.from({ length: r.int(0, 300) }, () => ({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring(r, 6, r.between(-170, 170), r.between(-60, 60), 0.1)] } })) };
    case 3: return { type: 'Polygon', coordinates: [[[0, 0], [1, 1]]] };
    case 4: return { type: 'Point', coordinates: [0, 0] };
    case 5: return { type: 'Polygon', coordinates: [[[0, 0], [400, 0], [0, 100], [0, 0]]] };
    case 6: return { type: 'Polygon', coordinates: [ring(r, 30_000, 0, 0, 5)] };
    case 7: return r.pick(['polygon', 42, null, [], { type: 'Feature' }]);
    case 8: return { type: 'Polygon', coordinates: [[['a', 'b'], [1, 1], [2, 2], ['a', 'b']]] };
    default: return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring(r, 20, 170, 0, 20)] } };
  }
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

function bodyMember(r: Random): [string, unknown] {
  const name = r.pick([...NAMES.filter((n) => !n.includes('[') && !n.includes('%')), 'geometry', 'region', 'regions', 'duration', 'bufferValue', 'bufferUnit', 'timeseriesInterval', 'groupBy']);
  switch (name) {
    case 'geometry': return [name, geometry(r)];
    case 'region': return [name, r.pick([{ dataset: 'public-eez-areas', id: r.pick([8371, '8463', 'nope', null]) }, { dataset: ['public-eez-areas'], id: [8371] }, 'x', { dataset: 'public-whales', id: 1 }])];
    case 'buffer-value': case 'bufferValue': return [name, r.pick(BUFFERS)];
    case 'buffer-unit': case 'bufferUnit': return [name, r.pick(UNITS)];
    case 'datasets': return [name, r.pick([[r.pick(DATASETS)], r.pick(DATASETS), [], null, 7, [[r.pick(DATASETS)]], Array.from({ length: 50 }, () => r.pick(DATASETS))])];
    default: {
      const value = r.pick(VALUES);
      return [name, r.pick([value, [value], Number(value), value.length, null, true, { value }, nested(r.int(1, 40))])];
    }
  }
}

const PATHS = ['/v3/events', '/api/v3/events', '/v3/events/stats', '/api/v3/events/stats'];

export function hostileRequest(seed: number, token: string): HostileRequest {
  const r = new Random(seed);
  const auth = r.chance(0.9) ? { authorization: `Bearer ${token}` } : { authorization: r.pick(['', 'Bearer', 'Bearer nope', `Token ${token}`, `Bearer ${token} extra`]) };
  const kind = r.int(0, 19);
  if (kind === 0) {
    // Path tricks.
    const path = r.pick([
      '/docs/static/../../package.json', '/docs/static/%2e%2e/%2e%2e/package.json', '/v3/events/%E0%A4%A', '/v3/../package.json', `/v3/events/${'e'.repeat(r.int(90, 300))}`,
      '/v3/events/%00?dataset=public-global-fishing-events:latest', '//v3/events', '/v3/events/stats/x', '/openapi.json', '/docs', '/docs/static/index.html',
      '/healthz?x=1', '/readyz', '/', '/v3', '/api/v3/events/%F0%9F%90%9F?dataset=public-global-fishing-events:latest', '/nope%',
    ]);
    return { method: r.pick(['GET', 'GET', 'POST', 'OPTIONS', 'DELETE', 'HEAD']), path, headers: { ...auth } };
  }
  if (kind <= 6) return plausibleRequest(r, auth);
  if (kind >= 18) return vesselRequest(r, auth);
  const post = r.chance(0.45);
  const path = kind === 1 ? `/v3/events/${encodeValue(r, r.pick(['c2f0967e061f99a01793edac065de003', 'nope', ...VALUES.slice(0, 20)]))}` : r.pick(PATHS);
  const pairs: string[] = [];
  const paramCount = r.int(0, 8);
  if (r.chance(0.7)) pairs.push(`datasets=${encodeValue(r, r.pick(DATASETS))}`);
  if (!post || r.chance(0.5)) pairs.push(`limit=${encodeValue(r, r.pick(['1', '5', '0', '99999', 'Infinity', '-1', '1e309', '2147483648']))}`, `offset=${encodeValue(r, r.pick(['0', '1000', '-1', 'NaN', '1e309', '50']))}`);
  for (let i = 0; i < paramCount; i++) pairs.push(`${encodeValue(r, r.pick(NAMES))}=${encodeValue(r, r.pick(VALUES))}`);
  if (path.startsWith('/v3/events/') && !path.includes('stats')) pairs.push(`dataset=${encodeValue(r, r.pick(DATASETS))}`);
  if (path.includes('stats') && r.chance(0.7)) pairs.push(`timeseries-interval=${r.pick(['MONTH', 'DAY', 'HOUR', 'YEAR', 'WEEK'])}`);
  const headers: Record<string, string> = { ...auth };
  if (r.chance(0.1)) headers['x-wire-format'] = r.pick(['spec', 'gfw', 'xml', '']);
  if (r.chance(0.1)) headers['if-none-match'] = r.pick(['*', 'W/"x"', '']);
  if (r.chance(0.1)) headers['accept-encoding'] = r.pick(['gzip', 'br', 'deflate', 'gzip;q=0, br;q=0']);
  const request: HostileRequest = { method: post ? 'POST' : 'GET', path: `${path}${pairs.length ? `?${r.chance(0.1) ? pairs.reverse().join('&&') : pairs.join('&')}` : ''}`, headers };
  if (post) {
    headers['content-type'] = r.pick(['application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json']);
    const body: Record<string, unknown> = {};
    if (r.chance(0.8)) body['datasets'] = [r.pick(DATASETS)];
    for (let i = 0; i < r.int(0, 6); i++) {
      const [name, value] = bodyMember(r);
      body[name] = value;
    }
    if (path.includes('stats') && r.chance(0.7)) body['timeseriesInterval'] = r.pick(['MONTH', 'YEAR', 'NONE']);
    request.body = r.pick([
      JSON.stringify(body), JSON.stringify(body), JSON.stringify(body), JSON.stringify(body), '', '{', 'null', '[]', '"text"', '{"datasets":', JSON.stringify(nested(r.int(30, 3000))),
      JSON.stringify(body).replace('{', '{"__proto__":{"polluted":1},'), `{"datasets":["${'x'.repeat(r.int(1000, 200_000))}"]}`,
    ]);
  }
  return request;
}

const WHERE = [
  "shipname = 'DON TITO'", "(flag = 'CHN' OR mmsi = '412000001') AND imo = '9076260'", '(((((((', "'", "shipname = '", "flag = 'CHN' AND", 'length > 3',
  "shipname LIKE '%A%'", `${'('.repeat(500)}flag = 'A'${')'.repeat(500)}`, `flag = '${'A'.repeat(3000)}'`, "callsign = \"x\"\"y\"", '\u0000', 'AND OR AND',
];
const VESSEL_NAMES = ['query', 'where', 'since', 'limit', 'datasets[0]', 'dataset', 'includes[0]', 'match-fields[0]', 'registries-info-data', 'binary', 'ids', 'ids[0]', 'vessel-groups'];

/** The Vessels API and insights: searches with hostile `where` texts and cursors, lookups of odd ids, insight bodies of every shape. */
function vesselRequest(r: Random, auth: Record<string, string>): HostileRequest {
  if (r.chance(0.3)) {
    const vessels = r.pick([[], [{ datasetId: 'public-global-vessel-identity:latest', vesselId: r.pick(VALUES) }], Array.from({ length: r.int(40, 80) }, () => ({ datasetId: r.pick(DATASETS), vesselId: 'x' })), 'x', null, [{}]]);
    const body = { includes: r.pick([['FISHING'], ['GAP', 'COVERAGE'], ['VESSEL-IDENTITY-IUU-VESSEL-LIST'], [], 'FISHING', [r.pick(VALUES)]]), startDate: r.pick(VALUES), endDate: r.pick(VALUES), vessels };
    const text = r.pick([JSON.stringify(body), JSON.stringify({ ...body, startDate: '2019-01-01', endDate: '2021-01-01' }), '{', JSON.stringify(nested(r.int(30, 300)))]);
    return { method: 'POST', path: r.pick(['/v3/insights/vessels', '/api/v3/insights/vessels']), headers: { ...auth, 'content-type': 'application/json' }, body: text };
  }
  const path = r.pick(['/v3/vessels/search', '/v3/vessels/search', '/v3/vessels', `/v3/vessels/${encodeValue(r, r.pick(VALUES))}`]);
  const pairs: string[] = [];
  if (path.endsWith('search') && r.chance(0.8)) pairs.push(r.chance(0.5) ? `query=${encodeValue(r, r.pick(VALUES))}` : `where=${encodeValue(r, r.pick(WHERE))}`);
  if (path === '/v3/vessels' && r.chance(0.8)) pairs.push(`ids=${encodeValue(r, r.pick(VALUES))}`);
  for (let i = 0; i < r.int(0, 5); i++) pairs.push(`${encodeValue(r, r.pick(VESSEL_NAMES))}=${encodeValue(r, r.pick([...VALUES, ...WHERE, 'eyJvZmZzZXQiOi0xfQ']))}`);
  return { method: 'GET', path: `${path}${pairs.length ? `?${pairs.join('&')}` : ''}`, headers: { ...auth } };
}

const GOOD: [string, () => string][] = [
  ['flags', () => 'CHN,ESP,TWN'], ['vessel-types', () => 'FISHING'], ['start-date', () => '2019-01-01'], ['end-date', () => '2021-01-01'],
  ['time-filter-mode', () => 'START-DATE'], ['min-duration', () => '2'], ['max-duration', () => '48'], ['encounter-types', () => 'CARRIER-FISHING'],
  ['region-datasets', () => 'public-eez-areas'], ['region-ids', () => '8371'], ['confidences', () => '3,4'], ['types', () => 'GAP_START,FISHING'],
  ['sort', () => '-end'], ['summary', () => 'true'], ['includes', () => 'id,vessel.name'], ['include-regions', () => 'false'], ['is-closed', () => 'false'],
];

/** A request a client could mean: valid parameters, sometimes one of them hostile. */
function plausibleRequest(r: Random, auth: Record<string, string>): HostileRequest {
  const datasets = Object.values(DATASET_ID_BY_KIND).filter(() => r.chance(0.5)).map((d) => `${d}:latest`);
  const pairs = [`datasets=${encodeURIComponent((datasets.length ? datasets : ['public-global-fishing-events:latest']).join(','))}`];
  for (let i = 0; i < r.int(0, 4); i++) {
    const [name, value] = r.pick(GOOD);
    pairs.push(`${name}=${encodeURIComponent(value())}`);
  }
  if (r.chance(0.3)) pairs.push(`${r.pick(NAMES)}=${encodeValue(r, r.pick(VALUES))}`);
  const stats = r.chance(0.25);
  if (stats) pairs.push(`timeseries-interval=${r.pick(['MONTH', 'YEAR', 'DAY'])}`, ...(r.chance(0.5) ? [`group-by=${r.pick(['FLAG', 'REGION_EEZ', 'GEARTYPE', 'NEXT_PORT_ID'])}`, 'includes=TOTAL_COUNT,EVENTS_GROUPED'] : []));
  else pairs.push(`limit=${r.pick(['1', '20', '100', '100', '500', '1000', r.chance(0.2) ? '99999' : '5000'])}`, `offset=${r.pick(['0', '0', '10', '1000', '5000'])}`);
  if (!stats && r.chance(0.25)) {
    const body: Record<string, unknown> = { datasets: datasets.length ? datasets : ['public-global-fishing-events:latest'], geometry: geometry(r) };
    if (r.chance(0.5)) Object.assign(body, { bufferValue: r.pick(BUFFERS), bufferUnit: r.pick(UNITS) });
    return { method: 'POST', path: `/v3/events?${pairs.filter((p) => /^(limit|offset|sort)=/.test(p)).join('&')}`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }
  return { method: 'GET', path: `${stats ? '/v3/events/stats' : '/v3/events'}?${pairs.join('&')}`, headers: { ...auth } };
}

export interface Verdict {
  ok: boolean;
  problem?: string;
}

const LEAKS = /\bat [\w$.<>]+ \(|node:internal|\/src\/|\.ts:\d+|SELECT |FROM events|duckdb|Binder Error|Parser Error|FST_ERR|TypeError|RangeError/;

/** What every answer must be: never a 500, JSON in our shape for every error, no leak. */
export function check(status: number, contentType: string | undefined, body: string): Verdict {
  if (status >= 500 && status !== 503 && status !== 504) return { ok: false, problem: `status ${status}` };
  if (LEAKS.test(body)) return { ok: false, problem: `a stack trace, source path or SQL leaked: ${body.slice(0, 200)}` };
  if (status >= 400) {
    if (!contentType?.startsWith('application/json')) return { ok: false, problem: `error ${status} is ${contentType ?? 'untyped'}, not JSON` };
    try {
      const json = JSON.parse(body) as { statusCode?: unknown; error?: unknown; messages?: { title?: unknown; detail?: unknown }[] };
      const shaped = json.statusCode === status && typeof json.error === 'string' && Array.isArray(json.messages) && json.messages.length > 0
        && json.messages.every((m) => typeof m.title === 'string' && typeof m.detail === 'string');
      if (!shaped) return { ok: false, problem: `error ${status} is not in our shape: ${body.slice(0, 200)}` };
    } catch {
      return { ok: false, problem: `error ${status} is not JSON: ${body.slice(0, 200)}` };
    }
  } else if (status === 200 && contentType?.startsWith('application/json')) {
    try {
      JSON.parse(body);
    } catch {
      return { ok: false, problem: `a 200 whose body does not parse (cut short?): ${body.slice(-200)}` };
    }
  }
  return { ok: true };
}

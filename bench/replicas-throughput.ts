// node --import tsx bench/replicas-throughput.ts --url BASE --token TOKEN [--seconds S] [--clients C] [--label NAME]
// Requests per second through one base URL (a service replica, or a load balancer in front of
// several) with C concurrent clients (autocannon, keep-alive). The requests are the lookups the
// official clients make most, in equal shares: an event by id, a vessel's history over the five
// datasets, a region list with its total, encounter types over a year, a deep page, and the
// fishing dataset's 8-year monthly statistics by flag. Their parameters are drawn from the served
// data itself (a few pages read first), so every request finds events. Prints one JSON line.
// deploy/replicas.sh runs it against one replica and against two behind HAProxy (docs/deploy.md).
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: {
  url: { type: 'string' }, token: { type: 'string' }, seconds: { type: 'string', default: '10' },
  clients: { type: 'string', default: '8' }, label: { type: 'string', default: '' },
} });
if (!args.url || !args.token) throw new Error('--url and --token are required');
const base = args.url.replace(/\/$/, '');
const headers = { authorization: `Bearer ${args.token}`, 'content-type': 'application/json' };
const FISHING = 'public-global-fishing-events:latest';
const ENCOUNTERS = 'public-global-encounters-events:latest';
const ALL = [FISHING, ENCOUNTERS, 'public-global-loitering-events:latest', 'public-global-port-visits-events:latest', 'public-global-gaps-events:latest'];

interface Entry { id: string; start: string; vessel: { id: string; flag?: string | null }; regions: { eez: string[] } }
const getJson = async (path: string) => {
  const response = await fetch(base + path, { headers });
  if (response.status !== 200) throw new Error(`GET ${path} -> ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response.json() as Promise<{ entries: Entry[]; total: number }>;
};

// Samples: the first pages of every dataset (ids and vessels of each), and fishing's total for the deep page.
const samples: { entry: Entry; dataset: string }[] = [];
for (const dataset of ALL) {
  for (const entry of (await getJson(`/v3/events?datasets=${dataset}&limit=200&offset=0&sort=-start`)).entries) samples.push({ entry, dataset });
}
const fishingTotal = (await getJson(`/v3/events?datasets=${FISHING}&limit=1&offset=0`)).total;
if (samples.length === 0) throw new Error('the served data holds no events');
const inRegions = samples.filter(({ entry }) => entry.regions.eez.length > 0 && entry.vessel.flag);

let seed = 1;
const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
const yearOf = (entry: Entry) => Number(entry.start.slice(0, 4));
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

type Request = { method: 'GET' | 'POST'; path: string; body?: string };
const shapes: (() => Request)[] = [
  () => { const { entry, dataset } = pick(samples); return { method: 'GET', path: `/v3/events/${entry.id}?dataset=${dataset}` }; },
  () => ({ method: 'GET', path: `/v3/events?${q({ datasets: ALL.join(','), vessels: pick(samples).entry.vessel.id, 'start-date': '2017-01-01', 'end-date': '2025-01-01', limit: 100, offset: 0, sort: '-start' })}` }),
  () => {
    const { entry, dataset } = pick(inRegions.length > 0 ? inRegions : samples);
    const y = yearOf(entry);
    return { method: 'GET', path: `/v3/events?${q({ datasets: dataset, 'region-datasets': 'public-eez-areas', 'region-ids': entry.regions.eez[0] ?? '', flags: entry.vessel.flag ?? '', 'start-date': `${y}-01-01`, 'end-date': `${y + 1}-01-01`, limit: 100, offset: 0 })}` };
  },
  () => { const y = 2017 + Math.floor(next() * 8); return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: JSON.stringify({ datasets: [ENCOUNTERS], encounterTypes: ['CARRIER-FISHING', 'FISHING-CARRIER'], startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` }) }; },
  () => ({ method: 'GET', path: `/v3/events?${q({ datasets: FISHING, limit: 100, offset: Math.max(0, Math.floor(fishingTotal / 2) - Math.floor(next() * 100)), sort: pick(['+start', '-start']) })}` }),
  () => ({ method: 'POST', path: '/v3/events/stats', body: JSON.stringify({ datasets: [FISHING], startDate: '2017-01-01', endDate: '2025-01-01', timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] }) }),
];
// Every client cycles through the same 600 requests (100 of each shape, shuffled); the service
// keeps no cache of answers, so a request repeated by two clients costs twice.
const requests = Array.from({ length: 600 }, (_, i) => shapes[i % shapes.length]!()).sort(() => next() - 0.5);

const result = await autocannon({
  url: base, connections: Number(args.clients), duration: Number(args.seconds),
  requests: requests.map((request) => ({ ...request, headers })),
});
const errors = result.errors + result.non2xx + result.timeouts;
console.log(JSON.stringify({
  label: args.label, clients: Number(args.clients), seconds: Number(args.seconds), requests: result.requests.total,
  requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors,
}));
// A run with errors measured something else (a replica down, the balancer refusing): say so by the exit code.
if (errors > 0) process.exit(1);

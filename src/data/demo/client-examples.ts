// Events the official clients' documented example requests ask for (test/api/client-traffic.test.ts), so
// those requests find data in the demo: the Python client's example vessel fishing off Senegal,
// gfwr's example vessel visiting ports in January 2017 (one visit carrying the by-id example's
// published id), Russian carriers meeting fishing vessels in 2018-2022, carrier encounters in
// Senegal's EEZ in 2018, and confidence-4 port visits in 2024 at Trindade island, inside the
// MPA 555635930 the web app's example asks about (the package lists no port there). Like every
// vessel's, each example vessel's events follow one another with time to sail between them.
import { GROUNDS, type DemoVessel } from './fleet.ts';
import type { Port } from './geography.ts';
import { DAY, durations, encounterRows, fishingRow, gapRow, HOUR, portVisitRow, wholeSecond, type Meeting, type PublishedRow } from './rows.ts';
import { sailMs, type VoyageWorld } from './voyages.ts';

/** What the examples read of the demo's world (generate.ts, DemoWorld): its fleet, which they join. */
type ExampleWorld = VoyageWorld & { readonly fleet: DemoVessel[] };

const SENEGAL = GROUNDS.find((g) => g.name === 'Senegal shelf')!;
const BARENTS = GROUNDS.find((g) => g.name === 'Barents Sea')!;

// Maritime Identification Digits of the example vessels' flags.
const EXAMPLE_MIDS: Record<string, string> = { CHN: '412', RUS: '273', SEN: '663', PAN: '351', BRA: '710', NOR: '257' };
const EXAMPLE_NAMES: Record<string, string> = { CHN: 'LU RONG YUAN YU', RUS: 'KAPITAN', NOR: 'HAVSTRAND' };

function exampleVessel(w: ExampleWorld, id: string, flag: string, type: string, ground = SENEGAL): DemoVessel {
  const v: DemoVessel = {
    index: w.fleet.length,
    id,
    ssvid: `${EXAMPLE_MIDS[flag]}${String(w.random.int(0, 999999)).padStart(6, '0')}`,
    name: `${EXAMPLE_NAMES[flag] ?? 'OCEAN'} ${w.random.int(100, 999)}`,
    flag,
    type,
    gear_type: type === 'fishing' ? 'trawlers' : null,
    public_authorizations: [{ has_publicly_listed_authorization: true, rfmo: 'ICCAT' }],
    ground,
    activity: 1,
  };
  w.fleet.push(v);
  return v;
}

/** A day's visit to a port. */
const visit = (w: ExampleWorld, v: DemoVessel, startMs: number, port: Port, options: { confidence?: number; id?: string } = {}) =>
  portVisitRow(w, v, { startMs, endMs: startMs + 20 * HOUR }, port, options);

/** A carrier meeting a fishing vessel on the carrier's ground, then each at its next port. */
function* meeting(w: ExampleWorld, carrier: DemoVessel, partner: DemoVessel, startMs: number): Generator<PublishedRow> {
  const m: Meeting = {
    carrier, partner, startMs, endMs: startMs + durations.encounter(w.random), at: w.sea.onGround(carrier.ground, w.random),
    carrierPort: w.portFor(carrier), partnerPort: w.portFor(partner),
  };
  yield* encounterRows(w, m);
  for (const [v, port] of [[carrier, m.carrierPort], [partner, m.partnerPort]] as const) yield visit(w, v, wholeSecond(m.endMs + sailMs(m.at, port)), port);
}

export function* clientExampleRows(w: ExampleWorld): Generator<PublishedRow> {
  const chineseTrawler = exampleVessel(w, '8c7304226-6c71-edbe-0b63-c246734b3c01', 'CHN', 'fishing');
  // Four hauls a month, six days apart, each at most a day long.
  for (const month of [Date.UTC(2017, 0, 2), Date.UTC(2020, 9, 1), Date.UTC(2020, 10, 1), Date.UTC(2020, 11, 1)]) {
    for (let i = 0; i < 4; i++) {
      const startMs = month + i * 6 * DAY + HOUR * i;
      yield fishingRow(w, chineseTrawler, { startMs, endMs: startMs + Math.min(DAY, Math.round(durations.fishing(w.random) / 1000) * 1000) }, w.sea.onGround(SENEGAL, w.random));
    }
  }
  // gfwr's gap example asks for the intentional gaps of January 2017: this one, after the month's hauls.
  const off = w.sea.offshore(w.sea.onGround(SENEGAL, w.random), 50, w.random);
  const gapStart = Date.UTC(2017, 0, 22, 2);
  yield gapRow(w, chineseTrawler, gapStart, gapStart + 30 * HOUR, off, w.sea.reachedAfter(off, 150, w.random), true);

  const visitor = exampleVessel(w, 'e0248aed9-99b4-bae7-6b87-ff0a3c464676', 'SEN', 'fishing');
  const dakar = w.geo.ports.find((p) => p.id === 'sen-dakar')!;
  yield visit(w, visitor, Date.UTC(2017, 0, 3, 6), dakar, { confidence: 4, id: 'c2f0967e061f99a01793edac065de003' });
  yield visit(w, visitor, Date.UTC(2017, 0, 14, 9), dakar, { confidence: 3 });
  yield visit(w, visitor, Date.UTC(2017, 0, 25, 18), dakar, { confidence: 2 });

  const senegalCarrier = exampleVessel(w, '3b8e1d2c4-5a6f-7b8c-9d0e-1f2a3b4c5d6e', 'PAN', 'carrier');
  for (const month of [2, 5, 8]) yield* meeting(w, senegalCarrier, chineseTrawler, Date.UTC(2018, month, 12));

  const trindade = { id: 'bra-trindade', name: 'TRINDADE', flag: 'BRA', lat: -20.5036, lon: -29.3235 };
  const brazilian = exampleVessel(w, '7a6b5c4d3-2e1f-0a9b-8c7d-6e5f4a3b2c1d', 'BRA', 'fishing');
  for (const month of [1, 6]) yield visit(w, brazilian, Date.UTC(2024, month, 5, 8), trindade, { confidence: 4 });

  const russianCarrier = exampleVessel(w, '5f2a3b1c4-9d8e-7f6a-5b4c-3d2e1f0a9b8c', 'RUS', 'carrier', BARENTS);
  const norwegianTrawler = exampleVessel(w, '6e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b', 'NOR', 'fishing', BARENTS);
  for (let year = 2018; year <= 2022; year++) yield* meeting(w, russianCarrier, norwegianTrawler, Date.UTC(year, 5, 10));
}

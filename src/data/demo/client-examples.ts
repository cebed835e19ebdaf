// Events the official clients' documented example requests ask for (spec/client-traffic.md), so
// those requests find data in the demo: the Python client's example vessel fishing off Senegal,
// gfwr's example vessel visiting ports in January 2017 (one visit carrying the by-id example's
// published id), Russian carriers meeting fishing vessels in 2018-2022, carrier encounters in
// Senegal's EEZ in 2018, and confidence-4 port visits in 2024 at Trindade island, inside the
// MPA 555635930 the web app's example asks about (the package lists no port there).
import { GROUNDS, type DemoVessel } from './fleet.ts';
import { encounterRows, fishingRow, gapRow, portVisitRow, type DemoWorld, type PublishedRow } from './generate.ts';

const SENEGAL = GROUNDS.find((g) => g.name === 'Senegal shelf')!;
const BARENTS = GROUNDS.find((g) => g.name === 'Barents Sea')!;

// Maritime Identification Digits of the example vessels' flags.
const EXAMPLE_MIDS: Record<string, string> = { CHN: '412', RUS: '273', SEN: '663', PAN: '351', BRA: '710' };

function exampleVessel(w: DemoWorld, id: string, flag: string, type: string, ground = SENEGAL): DemoVessel {
  const v: DemoVessel = {
    id,
    ssvid: `${EXAMPLE_MIDS[flag]}${String(w.random.int(0, 999999)).padStart(6, '0')}`,
    name: `${flag === 'CHN' ? 'LU RONG YUAN YU' : flag === 'RUS' ? 'KAPITAN' : 'OCEAN'} ${w.random.int(100, 999)}`,
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

export function* clientExampleRows(w: DemoWorld): Generator<PublishedRow> {
  const day = 86_400_000;
  const chineseTrawler = exampleVessel(w, '8c7304226-6c71-edbe-0b63-c246734b3c01', 'CHN', 'fishing');
  for (const month of [Date.UTC(2017, 0, 2), Date.UTC(2020, 9, 1), Date.UTC(2020, 10, 1), Date.UTC(2020, 11, 1)]) {
    for (let i = 0; i < 4; i++) yield fishingRow(w, chineseTrawler, month + i * 6 * day + 3_600_000 * i);
  }
  // gfwr's gap example asks for the intentional gaps of January 2017.
  yield gapRow(w, chineseTrawler, { startMs: Date.UTC(2017, 0, 20, 2), intentional: true });

  const visitor = exampleVessel(w, 'e0248aed9-99b4-bae7-6b87-ff0a3c464676', 'SEN', 'fishing');
  const dakar = w.geo.ports.find((p) => p.id === 'sen-dakar')!;
  yield portVisitRow(w, visitor, { startMs: Date.UTC(2017, 0, 3, 6), port: dakar, confidence: 4, id: 'c2f0967e061f99a01793edac065de003' });
  yield portVisitRow(w, visitor, { startMs: Date.UTC(2017, 0, 14, 9), port: dakar, confidence: 3 });
  yield portVisitRow(w, visitor, { startMs: Date.UTC(2017, 0, 25, 18), port: dakar, confidence: 2 });

  const senegalCarrier = exampleVessel(w, '3b8e1d2c4-5a6f-7b8c-9d0e-1f2a3b4c5d6e', 'PAN', 'carrier');
  for (const month of [2, 5, 8]) yield* encounterRows(w, senegalCarrier, chineseTrawler, Date.UTC(2018, month, 12));

  const trindade = { id: 'bra-trindade', name: 'TRINDADE', flag: 'BRA', lat: -20.5036, lon: -29.3235 };
  const brazilian = exampleVessel(w, '7a6b5c4d3-2e1f-0a9b-8c7d-6e5f4a3b2c1d', 'BRA', 'fishing');
  for (const month of [1, 6]) yield portVisitRow(w, brazilian, { startMs: Date.UTC(2024, month, 5, 8), port: trindade, confidence: 4 });

  const russianCarrier = exampleVessel(w, '5f2a3b1c4-9d8e-7f6a-5b4c-3d2e1f0a9b8c', 'RUS', 'carrier', BARENTS);
  const fishers = w.fleet.filter((v) => v.type === 'fishing' && v.ground === BARENTS);
  for (let year = 2018; year <= 2022; year++) {
    const partner = fishers.length ? w.random.pick(fishers) : chineseTrawler;
    yield* encounterRows(w, russianCarrier, partner, Date.UTC(year, 5, 10));
  }
}

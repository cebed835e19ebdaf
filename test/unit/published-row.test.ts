import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateDemoRows, type PublishedRow } from '../../src/data/demo/generate.ts';
import { fromPublishedRow, RowError, toPublishedRow } from '../../src/data/published-row.ts';
import { toEntry } from '../../src/shape/entry.ts';

const rows = [...generateDemoRows({ events: 400, seed: 3 })];
const firstOf = (kind: string) => structuredClone(rows.find((r) => r['event_type'] === kind)!);
const openGap = () => ({ ...firstOf('gap'), event_end: null });

describe('fromPublishedRow', () => {
  test('every generated row of every kind loads, and raw round-trips the stored fields', () => {
    for (const row of rows) {
      const record = fromPublishedRow(row);
      const raw = toPublishedRow(record);
      assert.equal(raw['event_id'], row['event_id']);
      assert.equal(raw['event_info'], row['event_info']);
      assert.equal(raw['event_vessels'], row['event_vessels']);
      assert.equal(raw['event_start'], row['event_start']);
    }
  });

  const broken: [string, (r: PublishedRow) => void, string, RegExp][] = [
    ['a missing event_start', (r) => delete r['event_start'], 'event_start', /required/],
    ['an unparseable event_end', (r) => (r['event_end'] = 'soon'), 'event_end', /ISO 8601/],
    ['an end before the start', (r) => (r['event_end'] = '2000-01-01T00:00:00Z'), 'event_end', /before event_start/],
    ['a latitude out of range', (r) => (r['lat_mean'] = 91), 'lat_mean', /\[-90, 90\]/],
    ['an unknown event_type', (r) => (r['event_type'] = 'whaling'), 'event_type', /one of fishing/],
    ['event_info that is not JSON', (r) => (r['event_info'] = '{oops'), 'event_info', /valid JSON/],
    ['a wrongly typed event_info field', (r) => (r['event_info'] = JSON.stringify({ ...JSON.parse(r['event_info'] as string), average_speed_knots: 'fast' })), 'event_info', /average_speed_knots must be a number/],
    ['event_vessels without the entity', (r) => (r['entity_id'] = 'someone-else'), 'event_vessels', /entity_id/],
    ['regions that are not lists', (r) => (r['regions_mean_position'] = { eez: '8371' }), 'regions_mean_position', /eez must be an array/],
  ];
  for (const [what, breakRow, field, detail] of broken) {
    test(`rejects ${what}, naming ${field}`, () => {
      const row = firstOf('fishing');
      breakRow(row);
      assert.throws(() => fromPublishedRow(row), (e) => e instanceof RowError && e.field === field && detail.test(e.detail));
    });
  }

  test('port visits need a confidence of 2, 3 or 4', () => {
    const row = firstOf('port_visit');
    row['event_info'] = JSON.stringify({ ...JSON.parse(row['event_info'] as string), confidence: 5 });
    assert.throws(() => fromPublishedRow(row), (e) => e instanceof RowError && /confidence must be 2, 3 or 4/.test(e.detail));
  });

  test('an encounter row with a base id gets the .1/.2 suffix from its vessel position', () => {
    const row = firstOf('encounter');
    const vessels = JSON.parse(row['event_vessels'] as string) as { id: string }[];
    row['event_id'] = 'abc';
    row['entity_id'] = vessels[1]!.id;
    assert.equal(fromPublishedRow(row).id, 'abc.2');
  });

  test('a row without event_type takes the kind given by --dataset, and a conflicting one is refused', () => {
    const row = firstOf('loitering');
    delete row['event_type'];
    assert.equal(fromPublishedRow(row, 'loitering').kind, 'loitering');
    assert.throws(() => fromPublishedRow(firstOf('fishing'), 'gap'), RowError);
  });
});

describe('toEntry', () => {
  const keys = ['start', 'end', 'id', 'type', 'position', 'regions', 'boundingBox', 'distances', 'vessel'];
  for (const kind of ['fishing', 'encounter', 'loitering', 'gap', 'port_visit']) {
    test(`${kind}: keys in the decided order with the kind block last, in both wire formats`, () => {
      for (const wire of ['spec', 'gfw'] as const) {
        const entry = toEntry(fromPublishedRow(firstOf(kind)), wire);
        assert.deepEqual(Object.keys(entry), [...keys, kind]);
        assert.deepEqual(Object.keys(entry['regions'] as object), ['eez', 'eez12Nm', 'fao', 'majorFao', 'highSeas', 'mpa', 'mpaNoTake', 'mpaNoTakePartial', 'rfmo']);
        assert.match(entry['start'] as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    });
  }

  test('spec writes numbers and null; gfw writes the live service\'s strings and ""', () => {
    const gap = fromPublishedRow(openGap());
    const spec = toEntry(gap, 'spec') as { end: unknown; gap: Record<string, unknown>; vessel: { publicAuthorizations: { hasPubliclyListedAuthorization: unknown }[] } };
    const gfw = toEntry(gap, 'gfw') as typeof spec;
    assert.equal(spec.end, null);
    assert.equal(gfw.end, '');
    assert.equal(typeof spec.gap['distanceKm'], 'number');
    assert.equal(typeof gfw.gap['distanceKm'], 'string');
    assert.equal(typeof gfw.gap['impliedSpeedKnots'], 'string');
    assert.equal(typeof gfw.gap['positions12HoursBeforeSat'], 'string');
    assert.equal(typeof spec.gap['positions12HoursBeforeSat'], 'number');
    assert.equal(typeof (gfw.gap['offPosition'] as { lat: unknown }).lat, 'number');
    for (const a of gfw.vessel.publicAuthorizations) assert.match(a.hasPubliclyListedAuthorization as string, /^(true|false|pending)$/);

    const visit = fromPublishedRow(firstOf('port_visit'));
    const specVisit = (toEntry(visit, 'spec') as { port_visit: { confidence: unknown; startAnchorage: { distanceFromShoreKm: unknown } } }).port_visit;
    const gfwVisit = (toEntry(visit, 'gfw') as unknown as { port_visit: typeof specVisit }).port_visit;
    assert.equal(typeof specVisit.confidence, 'number');
    assert.equal(typeof gfwVisit.confidence, 'string');
    assert.equal(typeof gfwVisit.startAnchorage.distanceFromShoreKm, 'string');
    assert.equal(typeof (toEntry(visit, 'gfw') as { position: { lat: unknown } }).position.lat, 'number');
  });

  test('an encounter entry carries the other vessel first in its block, type lower case main-other', () => {
    const pair = rows.filter((r) => r['event_type'] === 'encounter').slice(0, 2).map((r) => toEntry(fromPublishedRow(r), 'spec')) as {
      id: string; vessel: { id: string }; encounter: { vessel: { id: string }; type: string };
    }[];
    const [one, two] = pair as [typeof pair[0], typeof pair[0]];
    assert.equal(one.id.replace(/\.1$/, ''), two.id.replace(/\.2$/, ''));
    assert.equal(one.vessel.id, two.encounter.vessel.id);
    assert.equal(two.vessel.id, one.encounter.vessel.id);
    assert.equal(Object.keys(one.encounter)[0], 'vessel');
    assert.match(one.encounter.type, /^[a-z_]*-[a-z_]*$/);
    assert.equal(one.encounter.type.split('-').reverse().join('-'), two.encounter.type);
  });
});

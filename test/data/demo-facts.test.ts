// The facts of the public data that the demo must reproduce (issue: demo data that looks like the
// real thing), checked on a generated dataset loaded by the project's loader.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { distanceKm } from '../../src/data/demo/geography.ts';
import { Land } from '../../src/data/demo/land.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';

const MIDS: Record<string, string[]> = { CHN: ['412', '413', '414'], TWN: ['416'], JPN: ['431', '432'], KOR: ['440', '441'], ESP: ['224', '225'], RUS: ['273'], USA: ['338', '366', '367'] };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const HOUR = 3_600_000;
/** The vessels of the official clients' examples (src/data/demo/client-examples.ts), placed by hand. */
const EXAMPLE_VESSELS = ['8c7304226-6c71-edbe-0b63-c246734b3c01', 'e0248aed9-99b4-bae7-6b87-ff0a3c464676', '3b8e1d2c4-5a6f-7b8c-9d0e-1f2a3b4c5d6e', '7a6b5c4d3-2e1f-0a9b-8c7d-6e5f4a3b2c1d', '5f2a3b1c4-9d8e-7f6a-5b4c-3d2e1f0a9b8c', '6e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b'];

describe('demo data facts', () => {
  let fixture: Fixture;
  let records: EventRecord[];
  const of = (kind: string) => records.filter((r) => r.kind === kind);
  before(async () => {
    fixture = await buildFixtureDb({ events: 20000, seed: 12 });
    records = fixture.records;
  });
  after(() => fixture.cleanup());

  test('kind mix: fishing : port visits : gaps : encounter entries : loitering about 100 : 25 : 8 : 1.5 : 1', () => {
    const fishing = of('fishing').length;
    for (const [kind, share] of [['port_visit', 25], ['gap', 8], ['encounter', 1.5], ['loitering', 1]] as const) {
      const ratio = (of(kind).length / fishing) * 100;
      assert.ok(Math.abs(ratio - share) <= share * 0.25, `${kind}: ${ratio.toFixed(2)} per 100 fishing, expected about ${share}`);
    }
  });

  test('ids: vessel ids 9-4-4-4-12 hex; event ids md5(type|vessel|start|end)', () => {
    for (const r of records) assert.match(r.vessel.id, /^[0-9a-f]{9}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const generated = records.filter((r) => r.kind !== 'encounter' && r.id !== 'c2f0967e061f99a01793edac065de003');
    for (const r of generated.slice(0, 2000)) {
      const md5 = createHash('md5').update(`${r.kind}|${r.vessel.id}|${new Date(r.startMs).toISOString()}|${r.endMs === null ? '' : new Date(r.endMs).toISOString()}`).digest('hex');
      assert.equal(r.id, md5);
    }
  });

  test('ssvid: 9 digits whose MID matches the flag, with 1-3 % malformed and without flag', () => {
    const vessels = [...new Map(records.map((r) => [r.vessel.id, r.vessel])).values()];
    const malformed = vessels.filter((v) => v.flag === null);
    assert.ok(malformed.length / vessels.length >= 0.005 && malformed.length / vessels.length <= 0.04, `${malformed.length} of ${vessels.length} without flag`);
    for (const v of vessels.filter((x) => x.flag && MIDS[x.flag])) {
      assert.match(v.ssvid!, /^\d{9}$/);
      assert.ok(MIDS[v.flag!]!.includes(v.ssvid!.slice(0, 3)), `${v.flag} vessel with ssvid ${v.ssvid}`);
    }
    const byFlag = new Map<string, number>();
    for (const r of of('fishing')) byFlag.set(r.vessel.flag ?? '', (byFlag.get(r.vessel.flag ?? '') ?? 0) + 1);
    const ranked = [...byFlag].sort((a, b) => b[1] - a[1]).map(([f]) => f);
    assert.equal(ranked[0], 'CHN', `flags by fishing events: ${ranked.slice(0, 5).join(', ')}`);
  });

  test('no position is on land', () => {
    const land = new Land();
    const onLand = records.filter((r) => land.isLand(r.lon, r.lat));
    assert.deepEqual(onLand.map((r) => `${r.kind} ${r.id} ${r.lat},${r.lon}`).slice(0, 5), []);
  });

  test('encounters: pairs .1/.2 with swapped vessels and mirrored types, 2 h minimum on a 10-minute grid, slow and close', () => {
    const encounters = of('encounter');
    const byId = new Map(encounters.map((r) => [r.id, r]));
    for (const one of encounters.filter((r) => r.id.endsWith('.1'))) {
      const two = byId.get(one.id.replace(/\.1$/, '.2'))!;
      assert.ok(two, `${one.id} has no pair`);
      assert.equal(one.otherVessel!.id, two.vessel.id);
      assert.equal(String(one.info['type']).split('-').reverse().join('-'), two.info['type']);
    }
    for (const r of encounters) {
      assert.ok(r.endMs! - r.startMs >= 2 * HOUR && r.startMs % 600_000 === 0 && r.endMs! % 600_000 === 0);
      assert.ok((r.info['median_speed_knots'] as number) < 2 && (r.info['median_distance_kilometers'] as number) < 0.5);
    }
    const hours = median(encounters.map((r) => (r.endMs! - r.startMs) / HOUR));
    assert.ok(hours >= 4 && hours <= 6.5, `median encounter ${hours} h`);
  });

  test('durations: fishing at least 20 min with a median about 8 h; loitering at least 1 h, over 20 nm from shore; intentional gaps at least 12 h; some gaps still open', () => {
    const fishing = of('fishing').map((r) => (r.endMs! - r.startMs) / HOUR);
    assert.ok(Math.min(...fishing) >= 1 / 3);
    assert.ok(Math.abs(median(fishing) - 8) <= 1.5, `median fishing ${median(fishing)} h`);
    for (const r of of('loitering')) assert.ok(r.endMs! - r.startMs >= HOUR && r.distances.startDistanceFromShoreKm! >= 37);
    const gaps = of('gap');
    for (const r of gaps.filter((g) => g.info['intentional_disabling'] && g.endMs !== null)) assert.ok(r.endMs! - r.startMs >= 12 * HOUR);
    assert.ok(gaps.some((g) => g.endMs === null), 'some gaps are still open');
  });

  test('port visits: at real ports, confidence 4 : 3 : 2 about 78 : 9 : 13 %, a long tail of multi-month visits', () => {
    const visits = of('port_visit');
    const share = (c: number) => (visits.filter((v) => v.info['confidence'] === c).length / visits.length) * 100;
    assert.ok(Math.abs(share(4) - 78) <= 4 && Math.abs(share(3) - 9) <= 3 && Math.abs(share(2) - 13) <= 3, `${share(4)} ${share(3)} ${share(2)}`);
    for (const v of visits) assert.match(String((v.info['intermediate_anchorage'] as { id: string }).id), /^[a-z]{3}-[a-z0-9]+/);
    assert.ok(visits.some((v) => v.endMs! - v.startMs > 30 * 24 * HOUR), 'some visits last more than a month');
  });

  test('regions: EEZ ids from Marine Regions, high seas outside every EEZ, RFMOs, FAO sub-areas; potential risk only outside EEZs', () => {
    assert.ok(records.some((r) => r.regions.eez.includes('8371')), 'Senegal (8371)');
    assert.ok(records.some((r) => r.regions.eez.includes('8486')), 'China (8486)');
    for (const r of records) {
      assert.equal(r.regions.highSeas.length > 0, r.regions.eez.length === 0, `${r.id}: high seas exactly outside EEZs`);
      if (r.info['potential_risk'] === true) assert.deepEqual(r.regions.eez, [], `${r.id}: potential risk inside an EEZ`);
    }
    assert.ok(records.filter((r) => r.regions.rfmo.length > 1).length > records.length / 2, 'several RFMOs per point');
    assert.ok(records.some((r) => r.regions.fao.includes('34.3.1')), 'FAO sub-areas');
    assert.ok(records.some((r) => r.regions.eez12Nm.length > 0), 'some events within 12 nm');
  });

  test('RFMOs follow the oceans: an Atlantic event never carries a Pacific or Indian Ocean body, nor the reverse', () => {
    const OCEANS: Record<string, { areas: string[]; only: string[] }> = {
      Atlantic: { areas: ['21', '27', '31', '34', '37', '41', '47'], only: ['ICCAT', 'NAFO', 'NEAFC', 'ICES', 'NASCO', 'GFCM', 'SRFC', 'FCWC', 'CRFM', 'CTMFM'] },
      Pacific: { areas: ['61', '67', '71', '77', '81', '87'], only: ['WCPFC', 'IATTC', 'SPRFMO', 'NPFC', 'FFA', 'PICES', 'NPAFC', 'IPHC', 'CPPS'] },
      Indian: { areas: ['51', '57'], only: ['IOTC', 'SWIOFC', 'RECOFI', 'PERSGA'] },
    };
    const seen = new Set<string>();
    for (const r of records) {
      const major = r.regions.majorFao[0];
      const ocean = Object.keys(OCEANS).find((o) => OCEANS[o]!.areas.includes(major ?? ''));
      if (!ocean) continue;
      seen.add(ocean);
      for (const [other, { only }] of Object.entries(OCEANS)) {
        if (other === ocean) continue;
        const wrong = r.regions.rfmo.filter((b) => only.includes(b));
        assert.deepEqual(wrong, [], `${r.id} (FAO ${major}, ${ocean}) carries ${other} bodies`);
      }
    }
    assert.deepEqual([...seen].sort(), ['Atlantic', 'Indian', 'Pacific']);
    const fishing = of('fishing');
    const wcpfc = fishing.filter((r) => r.regions.rfmo.includes('WCPFC')).length / fishing.length;
    assert.ok(wcpfc < 0.4, `${(wcpfc * 100).toFixed(1)} % of fishing events in WCPFC`);
    assert.ok(fishing.some((r) => r.regions.rfmo.includes('ICCAT')) && fishing.some((r) => r.regions.rfmo.includes('IOTC')));
  });

  test('authorizations: vessels are listed by the bodies where they fish, and each event\'s status follows them', () => {
    const PUBLISHING = ['ICCAT', 'IOTC', 'WCPFC', 'IATTC', 'CCSBT', 'SPRFMO', 'NPFC'];
    let listedWhereItFishes = 0, withBodies = 0;
    for (const r of of('fishing')) {
      const relevant = r.regions.rfmo.filter((b) => PUBLISHING.includes(b));
      const listed = relevant.filter((b) => (r.vessel.public_authorizations ?? []).some((a) => a.rfmo === b && String(a.has_publicly_listed_authorization) === 'true'));
      const expected = relevant.length > 0 && listed.length === relevant.length ? 'matching_relevant_public_authorization'
        : listed.length > 0 ? 'partially_matching_relevant_public_authorization' : 'not_matching_relevant_public_authorization';
      if (r.id !== 'c2f0967e061f99a01793edac065de003' && !r.vessel.id.startsWith('8c7304226')) assert.equal(r.info['vessel_public_authorization_status'], expected, r.id);
      if (relevant.length > 0) {
        withBodies++;
        if ((r.vessel.public_authorizations ?? []).some((a) => relevant.includes(a.rfmo ?? ''))) listedWhereItFishes++;
      }
      if (r.info['potential_risk'] === true) assert.notEqual(r.info['vessel_public_authorization_status'], 'matching_relevant_public_authorization', `${r.id}: a risk despite a matching authorization`);
    }
    assert.ok(listedWhereItFishes / withBodies > 0.7, `${listedWhereItFishes} of ${withBodies} fishing events by vessels listed where they fish`);
    const statuses = new Set(of('fishing').map((r) => r.info['vessel_public_authorization_status']));
    assert.equal(statuses.size, 3, [...statuses].join(', '));
  });

  test('gaps: speeds vessels keep (above 30 knots rare, never above 35), and an open gap has no end point, end distances or speed', () => {
    const gaps = of('gap');
    const closed = gaps.filter((r) => r.endMs !== null);
    const speeds = closed.map((r) => Number(r.info['implied_speed_knots']));
    assert.ok(speeds.every((v) => Number.isFinite(v) && v >= 0 && v <= 35.001), `fastest ${Math.max(...speeds)}`);
    assert.ok(speeds.filter((v) => v > 30).length <= closed.length * 0.01, `${speeds.filter((v) => v > 30).length} of ${closed.length} above 30 knots`);
    assert.ok(median(speeds) > 1 && median(speeds) < 10, `median ${median(speeds)} knots`);
    const open = gaps.filter((r) => r.endMs === null);
    assert.ok(open.length > 0);
    for (const r of open) {
      assert.equal(r.info['implied_speed_knots'], null, r.id);
      assert.equal(r.info['distance_km'], null, r.id);
      assert.equal(r.info['on_position'], null, r.id);
      assert.equal(r.distances.endDistanceFromShoreKm, null, r.id);
      assert.equal(r.distances.endDistanceFromPortKm, null, r.id);
    }
  });

  test('vessel names vary as registries write them: few repeats, per-flag forms, not all with a number', () => {
    const vessels = [...new Map(records.map((r) => [r.vessel.id, r.vessel])).values()].filter((v) => !EXAMPLE_VESSELS.includes(v.id));
    const names = vessels.map((v) => v.name!);
    assert.ok(new Set(names).size >= names.length * 0.9, `${new Set(names).size} names for ${names.length} vessels`);
    for (const v of vessels) assert.equal(v.name, v.name!.toUpperCase());
    const numbered = names.filter((n) => /\d$/.test(n)).length / names.length;
    assert.ok(numbered > 0.3 && numbered < 0.9, `${(numbered * 100).toFixed(0)} % end with a number`);
    const of = (flag: string) => vessels.filter((v) => v.flag === flag && v.type !== 'carrier').map((v) => v.name!);
    assert.ok(of('JPN').every((n) => / MARU NO\.\d+$/.test(n)), of('JPN').join(', '));
    assert.ok(of('CHN').every((n) => / YU( LENG| YUN)? \d+$/.test(n)), of('CHN').slice(0, 5).join(', '));
    assert.ok(of('ESP').every((n) => !/\d/.test(n)), of('ESP').join(', '));
  });

  test('port visits: mostly at ports of the vessel\'s flag where its grounds have them, else at the ground\'s ports', () => {
    const byVessel = new Map<string, EventRecord[]>();
    for (const r of of('port_visit').filter((v) => !EXAMPLE_VESSELS.includes(v.vessel.id))) (byVessel.get(r.vessel.id) ?? byVessel.set(r.vessel.id, []).get(r.vessel.id)!).push(r);
    let vesselsWithOwnPorts = 0;
    for (const visits of byVessel.values()) {
      if (visits.length < 5) continue;
      const flag = visits[0]!.vessel.flag;
      const own = visits.filter((v) => (v.info['intermediate_anchorage'] as { flag: string }).flag === flag).length;
      if (own === 0) continue;
      vesselsWithOwnPorts++;
      assert.ok(own / visits.length >= 0.5, `${visits[0]!.vessel.name} (${flag}): ${own} of ${visits.length} visits at its own flag's ports`);
    }
    assert.ok(vesselsWithOwnPorts > 10, `${vesselsWithOwnPorts} vessels calling at their own flag's ports`);
  });

  test('nextPort of loitering and encounters points at a later port visit of the same vessel', () => {
    const visits = of('port_visit');
    const withNext = records.filter((r) => (r.kind === 'loitering' || r.kind === 'encounter') && r.vessel.next_port);
    assert.ok(withNext.length > 0);
    for (const r of withNext) {
      const later = visits.find((v) => v.vessel.id === r.vessel.id && v.startMs >= r.endMs! && (v.info['intermediate_anchorage'] as { id: string }).id === r.vessel.next_port!.id);
      assert.ok(later, `${r.kind} ${r.id}: no later visit to ${r.vessel.next_port!.id}`);
    }
  });

  test('voyages: each vessel\'s events follow one another, never needing more than 20 knots between them', () => {
    // Where a vessel was as an event began and as it ended: a gap's off and on positions, else the mean position.
    const where = (r: EventRecord, end: boolean) => {
      const at = r.kind === 'gap' ? ((end ? r.info['on_position'] : null) ?? r.info['off_position']) as { lat: number; lon: number } : r;
      return { lat: at.lat, lon: at.lon };
    };
    const byVessel = new Map<string, EventRecord[]>();
    for (const r of records) (byVessel.get(r.vessel.id) ?? byVessel.set(r.vessel.id, []).get(r.vessel.id)!).push(r);
    let pairs = 0;
    for (const events of byVessel.values()) {
      events.sort((a, b) => a.startMs - b.startMs);
      for (let i = 1; i < events.length; i++) {
        const [before, after] = [events[i - 1]!, events[i]!];
        const label = `${before.vessel.id}: ${before.kind} ${before.id} then ${after.kind} ${after.id}`;
        assert.notEqual(before.endMs, null, `${label}: an open gap is a vessel's last event`);
        const hours = (after.startMs - before.endMs!) / HOUR;
        assert.ok(hours >= 0, `${label}: overlap`);
        const a = where(before, true);
        const b = where(after, false);
        const knots = distanceKm(a.lon, a.lat, b.lon, b.lat) / 1.852 / hours;
        assert.ok(knots <= 20, `${label}: ${knots.toFixed(1)} knots`);
        pairs++;
      }
    }
    assert.ok(pairs > records.length * 0.9, `${pairs} pairs of consecutive events`);
  });

  test('voyages: a fishing vessel sails from port to its grounds and back; some fishing falls in no-take MPAs', () => {
    const byVessel = new Map<string, EventRecord[]>();
    for (const r of records.filter((x) => x.vessel.type === 'fishing' && !EXAMPLE_VESSELS.includes(x.vessel.id))) (byVessel.get(r.vessel.id) ?? byVessel.set(r.vessel.id, []).get(r.vessel.id)!).push(r);
    let voyages = 0, withFishing = 0, hauls = 0;
    for (const events of byVessel.values()) {
      events.sort((a, b) => a.startMs - b.startMs);
      const visits = events.flatMap((r, i) => (r.kind === 'port_visit' ? [i] : []));
      for (let k = 1; k < visits.length; k++) {
        const between = events.slice(visits[k - 1]! + 1, visits[k]);
        voyages++;
        if (between.some((r) => r.kind === 'fishing')) withFishing++;
        // Hauls of one voyage are near one another, not scattered over the ocean.
        const fishing = between.filter((r) => r.kind === 'fishing');
        for (let i = 1; i < fishing.length; i++, hauls++) assert.ok(distanceKm(fishing[i - 1]!.lon, fishing[i - 1]!.lat, fishing[i]!.lon, fishing[i]!.lat) <= 200, `${fishing[i]!.id}`);
      }
    }
    assert.ok(voyages > 500 && withFishing / voyages > 0.85, `${withFishing} of ${voyages} voyages fish`);
    assert.ok(hauls > 1000, `${hauls} hauls after another of the same voyage`);
    const noTake = of('fishing').filter((r) => r.regions.mpaNoTake.length > 0).length;
    assert.ok(noTake > 0 && noTake < of('fishing').length * 0.2, `${noTake} fishing events in no-take MPAs`);
  });

  test('the client examples find their data: the Python example vessel off Senegal, gfwr\'s port visits in January 2017', () => {
    const trawler = records.filter((r) => r.vessel.id === '8c7304226-6c71-edbe-0b63-c246734b3c01' && r.kind === 'fishing');
    assert.ok(trawler.some((r) => r.regions.eez.includes('8371') && r.startMs >= Date.UTC(2020, 9, 1)));
    const visits = records.filter((r) => r.vessel.id === 'e0248aed9-99b4-bae7-6b87-ff0a3c464676' && r.startMs < Date.UTC(2017, 1, 1));
    assert.ok([3, 4].every((c) => visits.some((v) => v.info['confidence'] === c)), 'confidences 3 and 4, as gfwr asks');
  });
});

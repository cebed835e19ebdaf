// The Vessels API as the official clients call it (the Python client's search_vessels,
// get_vessel_by_id and get_vessels_by_ids with their default parameters; gfwr's get_vessel_info
// by search, paged with since, and by ids), every vessel's identities proven against a plain
// reading of the loaded records, and bad input answered with a JSON error naming the parameter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OPTIONS } from '../../src/config.ts';
import type { EventRecord, StoredVessel } from '../../src/domain/record.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type SelfReported = { id: string; ssvid: string | null; shipname: string | null; nShipname: string | null; flag: string | null; transmissionDateFrom: string; transmissionDateTo: string; matchFields: string };
type Item = { dataset: string; registryInfoTotalRecords: number; registryInfo: unknown[]; registryOwners?: unknown[]; registryPublicAuthorizations?: unknown[]; selfReportedInfo: SelfReported[]; combinedSourcesInfo: { vesselId: string; shiptypes: { name: string }[] }[]; matchCriteria?: unknown[] };
type Search = { since: string | null; total: number; limit: number; entries: Item[] };

const DATASET = 'public-global-vessel-identity:latest';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What the events say of each vessel: its identities, first and last seen, from the records alone. */
function referenceIdentities(records: readonly EventRecord[]): Map<string, Map<string, { ssvid: string | null; shipname: string | null; flag: string | null; from: number; to: number }>> {
  const vessels = new Map<string, Map<string, { ssvid: string | null; shipname: string | null; flag: string | null; from: number; to: number }>>();
  const add = (v: StoredVessel, r: EventRecord) => {
    const identities = vessels.get(v.id) ?? vessels.set(v.id, new Map()).get(v.id)!;
    const key = JSON.stringify([v.ssvid, v.name, v.flag]);
    const known = identities.get(key) ?? identities.set(key, { ssvid: v.ssvid, shipname: v.name, flag: v.flag, from: Infinity, to: -Infinity }).get(key)!;
    known.from = Math.min(known.from, r.startMs);
    known.to = Math.max(known.to, r.endMs ?? r.startMs);
  };
  for (const r of records) {
    add(r.vessel, r);
    if (r.otherVessel?.id) add(r.otherVessel, r);
  }
  return vessels;
}

describe('the Vessels API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ wire: OPTIONS.wire.default as WireFormat });
  });
  after(() => t.close());

  // The Python client sends these headers on every request, the body-less GET included.
  const python = () => ({ ...t.auth, accept: 'application/json', 'content-type': 'application/json' });
  const get = async (url: string, headers: Record<string, string> = t.auth) => t.app.inject({ url, headers });
  const aVessel = () => t.fixture.records.find((r) => r.kind === 'fishing' && r.vessel.name && r.vessel.ssvid)!.vessel;

  test('Python: search_vessels(query=...) with its default parameters finds the vessel by MMSI and by name', async () => {
    const vessel = aVessel();
    for (const query of [vessel.ssvid!, vessel.name!.toLowerCase()]) {
      const res = await get(`/v3/vessels/search?limit=20&datasets%5B0%5D=${encodeURIComponent(DATASET)}&query=${encodeURIComponent(query)}&includes%5B0%5D=OWNERSHIP&includes%5B1%5D=AUTHORIZATIONS&includes%5B2%5D=MATCH_CRITERIA&binary=false`, python());
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Search;
      assert.ok(body.total >= 1 && body.entries.length >= 1, query);
      // An identifier first; a name equal to the query before names that only hold it.
      assert.equal(body.entries[0]!.selfReportedInfo[0]!.id, vessel.id, query);
      const first = body.entries[0]!;
      assert.deepEqual(Object.keys(first), ['registryInfoTotalRecords', 'registryInfo', 'registryOwners', 'registryPublicAuthorizations', 'combinedSourcesInfo', 'selfReportedInfo', 'matchCriteria', 'dataset']);
      assert.equal(first.dataset, DATASET);
      assert.equal(first.selfReportedInfo[0]!.ssvid, vessel.ssvid);
      assert.equal(first.combinedSourcesInfo[0]!.shiptypes[0]!.name, vessel.type!.toUpperCase());
    }
  });

  test('Python: search_vessels(where=...) and without includes leaves the optional parts out', async () => {
    const vessel = aVessel();
    const where = `ssvid='${vessel.ssvid}' AND shipname='${vessel.name!.replace(/'/g, "''")}'`;
    const res = await get(`/v3/vessels/search?limit=20&datasets%5B0%5D=${encodeURIComponent(DATASET)}&where=${encodeURIComponent(where)}&includes%5B0%5D=MATCH_CRITERIA&binary=false`, python());
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Search;
    assert.ok(body.entries.some((e) => e.selfReportedInfo.some((s) => s.id === vessel.id)));
    for (const e of body.entries) {
      assert.ok(e.selfReportedInfo.some((s) => s.ssvid === vessel.ssvid));
      assert.equal(e.registryOwners, undefined);
      assert.ok(Array.isArray(e.matchCriteria));
    }
  });

  test('Python: get_vessel_by_id and get_vessels_by_ids with their default parameters', async () => {
    const vessel = aVessel();
    const one = await get(`/v3/vessels/${vessel.id}?dataset=${encodeURIComponent(DATASET)}&registries-info-data=ALL&includes%5B0%5D=POTENTIAL_RELATED_SELF_REPORTED_INFO&binary=false`, python());
    assert.equal(one.statusCode, 200, one.body);
    assert.equal((one.json() as Item).selfReportedInfo[0]!.id, vessel.id);
    assert.deepEqual((one.json() as Item).registryOwners, []);
    const others = [...new Set(t.fixture.records.map((r) => r.vessel.id))].filter((id) => id !== vessel.id).slice(0, 2);
    const ids = [vessel.id, ...others];
    const many = await get(`/v3/vessels?${ids.map((id, i) => `ids%5B${i}%5D=${id}`).join('&')}&datasets%5B0%5D=${encodeURIComponent(DATASET)}&registries-info-data=ALL&includes%5B0%5D=POTENTIAL_RELATED_SELF_REPORTED_INFO&binary=false`, python());
    assert.equal(many.statusCode, 200, many.body);
    const body = many.json() as { total: number; entries: Item[] };
    assert.equal(body.total, 3);
    assert.deepEqual(body.entries.map((e) => e.selfReportedInfo[0]!.id), ids);
  });

  test('gfwr: get_vessel_info(query=...) pages with since until it is null, each vessel once; by ids too', async () => {
    // The commonest first word of the loaded names: a search of several pages.
    const vessels = new Map<string, Set<string>>();
    for (const r of t.fixture.records) {
      const word = r.vessel.name?.split(' ')[0];
      if (word && word.length >= 3) (vessels.get(word) ?? vessels.set(word, new Set()).get(word)!).add(r.vessel.id);
    }
    const word = [...vessels].sort((a, b) => b[1].size - a[1].size)[0]![0];
    const base = `/v3/vessels/search?datasets%5B0%5D=${encodeURIComponent(DATASET)}&query=${encodeURIComponent(word)}&includes%5B0%5D=AUTHORIZATIONS&includes%5B1%5D=OWNERSHIP&includes%5B2%5D=MATCH_CRITERIA&limit=2`;
    const first = (await get(base)).json() as Search;
    assert.ok(first.total > 2, `${word}: ${first.total} vessels`);
    const seen: string[] = [];
    let page = first;
    for (let n = 0; n < 1000; n++) {
      seen.push(...page.entries.map((e) => e.selfReportedInfo[0]!.id));
      if (page.since === null) break;
      const res = await get(`${base}&since=${page.since}`);
      assert.equal(res.statusCode, 200, res.body);
      page = res.json() as Search;
      assert.equal(page.total, first.total);
    }
    assert.equal(seen.length, first.total);
    assert.equal(new Set(seen).size, seen.length);
    const byIds = await get(`/v3/vessels?datasets%5B0%5D=${encodeURIComponent(DATASET)}&ids%5B0%5D=${seen[0]}&registries-info-data=ALL`);
    assert.equal(byIds.statusCode, 200, byIds.body);
    assert.equal((byIds.json() as { total: number }).total, 1);
  });

  test('every vessel\'s identities, first and last seen equal a plain reading of the loaded records', async () => {
    const expected = referenceIdentities(t.fixture.records);
    const ids = [...expected.keys()].sort();
    for (let from = 0; from < ids.length; from += 100) {
      const batch = ids.slice(from, from + 100);
      const res = await get(`/v3/vessels?ids=${batch.join(',')}`);
      assert.equal(res.statusCode, 200, res.body);
      for (const item of (res.json() as { entries: Item[] }).entries) {
        const id = item.selfReportedInfo[0]!.id;
        const got = item.selfReportedInfo.map((s) => ({ ssvid: s.ssvid, shipname: s.shipname, flag: s.flag, from: s.transmissionDateFrom, to: s.transmissionDateTo })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        const want = [...expected.get(id)!.values()].map((i) => ({ ssvid: i.ssvid, shipname: i.shipname, flag: i.flag, from: iso(Math.floor(i.from / 1000) * 1000), to: iso(Math.floor(i.to / 1000) * 1000) })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
        assert.deepEqual(got, want, id);
      }
    }
    // Every vessel is found: search by where over each flag counts them all.
    const flags = [...new Set([...expected.values()].flatMap((m) => [...m.values()].map((i) => i.flag)).filter((f) => f !== null))];
    const counted = new Set<string>();
    for (const flag of flags) {
      const res = await get(`/v3/vessels/search?where=${encodeURIComponent(`flag = '${flag}'`)}&limit=50`);
      assert.equal(res.statusCode, 200, res.body);
      const want = [...expected].filter(([, m]) => [...m.values()].some((i) => i.flag === flag)).length;
      assert.equal((res.json() as Search).total, want, flag);
      for (const [id, m] of expected) if ([...m.values()].some((i) => i.flag === flag)) counted.add(id);
    }
    assert.ok(counted.size > 0);
  });

  test('the registry: found by IMO and call sign, its records, owners and authorizations, its match level', async () => {
    const registry = await t.store.vesselRegistry();
    const loaded = new Set(t.fixture.records.flatMap((r) => [r.vessel.id, r.otherVessel?.id]));
    const record = registry.find((r) => loaded.has(r.vesselId) && r.authorizations.length > 0) ?? registry.find((r) => loaded.has(r.vesselId))!;
    assert.ok(record, 'the demo registers some loaded vessels');
    const byImo = (await get(`/v3/vessels/search?query=${record.imo}`)).json() as Search;
    assert.equal(byImo.entries[0]!.selfReportedInfo[0]!.id, record.vesselId);
    const byCallsign = (await get(`/v3/vessels/search?where=${encodeURIComponent(`callsign = '${record.callsign!.toLowerCase()}' AND imo = '${record.imo}'`)}`)).json() as Search;
    assert.deepEqual(byCallsign.entries.map((e) => e.selfReportedInfo[0]!.id), [record.vesselId]);
    const item = (await get(`/v3/vessels/${record.vesselId}`)).json() as Omit<Item, 'registryInfo' | 'registryOwners' | 'registryPublicAuthorizations'> & { registryInfo: Record<string, unknown>[]; registryOwners: Record<string, unknown>[]; registryPublicAuthorizations: Record<string, unknown>[] };
    const records = registry.filter((r) => r.vesselId === record.vesselId);
    assert.equal(item.registryInfoTotalRecords, records.length);
    assert.deepEqual(item.registryInfo.map((i) => [i['imo'], i['callsign'], i['shipname'], i['flag'], i['ssvid'], i['lengthM'], i['tonnageGt'], i['geartypes']]),
      records.map((r) => [r.imo, r.callsign, r.shipname, r.flag, r.ssvid, r.lengthM, r.tonnageGt, r.geartypes]));
    assert.deepEqual(item.registryOwners.map((o) => o['name']), [...new Set(records.filter((r) => r.owner).map((r) => r.owner!.name))]);
    assert.deepEqual(item.registryPublicAuthorizations.map((a) => (a['sourceCode'] as string[])[0]).sort(), records.flatMap((r) => r.authorizations.map((a) => a.sourceCode)).sort());
    assert.equal(item.selfReportedInfo[0]!.matchFields, 'SEVERAL_FIELDS');
    // match-fields keeps the vessels at the levels asked for.
    const registered = new Set(registry.map((r) => r.vesselId));
    for (const [level, want] of [['SEVERAL_FIELDS', true], ['NO_MATCH', false]] as const) {
      const found = (await get(`/v3/vessels/search?where=${encodeURIComponent(`flag = '${record.flag}'`)}&match-fields=${level}&limit=50`)).json() as Search;
      for (const e of found.entries) assert.equal(registered.has(e.selfReportedInfo[0]!.id), want, level);
    }
    const latestOnly = (await get(`/v3/vessels/${record.vesselId}?registries-info-data=NONE`)).json() as Item;
    assert.equal(latestOnly.registryInfo.length, 1);
  });

  test('bad input: a JSON error naming the parameter', async () => {
    const cases: [string, number, string][] = [
      ['/v3/vessels/search?query=ab', 422, 'query'],
      ['/v3/vessels/search', 422, 'query'],
      [`/v3/vessels/search?where=${encodeURIComponent("length = '30'")}`, 422, 'where'],
      [`/v3/vessels/search?where=${encodeURIComponent("shipname LIKE 'A%'")}`, 422, 'where'],
      ['/v3/vessels/search?query=abc&limit=51', 422, 'limit'],
      ['/v3/vessels/search?query=abc&since=xyz', 422, 'since'],
      ['/v3/vessels/search?query=abc&binary=true', 422, 'binary'],
      ['/v3/vessels/search?query=abc&datasets[0]=public-global-vessel-identity:v3.0', 404, 'datasets'],
      ['/v3/vessels/search?query=abc&includes=EVERYTHING', 422, 'includes'],
      [`/v3/vessels?ids=${Array.from({ length: 101 }, (_, i) => `v${i}`).join(',')}`, 422, 'ids'],
      ['/v3/vessels?ids=no-such-vessel', 404, 'ids'],
      ['/v3/vessels', 422, 'ids'],
      ['/v3/vessels?ids=a&vessel-groups=my-group', 422, 'vessel-groups'],
      ['/v3/vessels/no-such-vessel', 404, 'vesselId'],
    ];
    for (const [url, status, title] of cases) {
      const res = await get(url);
      assert.equal(res.statusCode, status, `${url}: ${res.body}`);
      const body = res.json() as { messages: { title: string }[] };
      assert.ok(body.messages.some((m) => m.title === title), `${url}: ${res.body}`);
    }
  });
});

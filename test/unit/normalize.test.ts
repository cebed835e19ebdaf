import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDateParam } from '../../src/query/dates.ts';
import { Forbidden, InvalidParameters, NotFound } from '../../src/query/errors.ts';
import type { DatasetVersion } from '../../src/query/datasets.ts';
import { normalizeListQuery, normalizeSingleDataset } from '../../src/query/normalize.ts';

const version = (versionId: number, kind: DatasetVersion['kind'], datasetId: string, v: string): DatasetVersion => ({
  versionId, kind, datasetId, version: v, loadedAt: '2024-01-01T00:00:00.000Z', rowCount: 1, lastUpdated: null,
});
const catalog = {
  groupIds: () => new Set(['carriers']),
  regionKnown: (dataset: string, id: string) => dataset === 'public-eez-areas' && id === '8371',
  regionGeometry: () => undefined,
  // It knows nothing of where events lie: every buffer is computed.
  eventsMayLieIn: () => true,
  versions: () => [
    version(1, 'fishing', 'public-global-fishing-events', 'v20240101'),
    version(2, 'fishing', 'public-global-fishing-events', 'v20240201'),
    version(3, 'encounter', 'public-global-encounters-events', 'v20240101'),
    version(4, 'port_visit', 'public-global-port-visits-events', 'v20240101'),
  ],
};
const everything = { canRead: () => true };
const ctx = { catalog, access: everything };
const paging = { limit: 10, offset: 0 };

describe('dates', () => {
  test('accepts YYYY-MM-DD and full ISO date-times, as UTC', () => {
    assert.equal(parseDateParam('2020-01-01'), Date.UTC(2020, 0, 1));
    assert.equal(parseDateParam('2017-01-01T00:00:00.000Z'), Date.UTC(2017, 0, 1));
    assert.equal(parseDateParam('2024-12-31T23:59:59.999Z'), Date.UTC(2024, 11, 31, 23, 59, 59, 999));
    assert.equal(parseDateParam('2020-01-01T10:00:00'), Date.UTC(2020, 0, 1, 10));
  });
  test('rejects dates that do not exist', () => {
    for (const bad of ['2021-02-30', '2020-13-01', 'yesterday', '2020-00-10', '2021-02-29T00:00:00Z']) assert.equal(parseDateParam(bad), undefined, bad);
  });
  test('property: every real calendar day round-trips', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (d) => {
        const day = d.toISOString().slice(0, 10);
        assert.equal(new Date(parseDateParam(day)!).toISOString().slice(0, 10), day);
      }),
    );
  });
});

describe('datasets', () => {
  test('latest resolves to the newest version; an explicit version to exactly that one', async () => {
    const latest = await normalizeListQuery({ datasets: ['public-global-fishing-events:latest'] }, paging, ctx);
    assert.equal(latest.datasets[0]?.resolved.version, 'v20240201');
    const pinned = await normalizeListQuery({ datasets: ['public-global-fishing-events:v20240101'] }, paging, ctx);
    assert.equal(pinned.datasets[0]?.resolved.versionId, 1);
  });

  test('every dataset alias (docs/api.md, "Datasets") resolves; two spellings of one dataset count once', async () => {
    const q = await normalizeListQuery(
      { datasets: ['public-global-encounter-events:latest', 'public-global-encounters-events:latest', 'public-global-port-visits-c2-events:latest'] },
      paging,
      ctx,
    );
    assert.deepEqual(q.datasets.map((d) => d.resolved.versionId), [3, 4]);
  });

  test('unknown dataset is a 404 naming it, after the request\'s own problems; unknown version a 404 naming it', async () => {
    await assert.rejects(() => normalizeListQuery({ datasets: ['public-global-whales:latest'] }, paging, ctx), (e) =>
      e instanceof NotFound && e.messages[0]!.title === 'datasets' && /unknown dataset "public-global-whales"/.test(e.messages[0]!.detail));
    await assert.rejects(() => normalizeListQuery({ datasets: ['public-global-whales:latest'], startDate: '2021-01-01', endDate: '2020-01-01' }, paging, ctx), (e) =>
      e instanceof InvalidParameters && e.messages[0]!.title === 'startDate');
    await assert.rejects(() => normalizeListQuery({ datasets: ['public-global-fishing-events:v1999'] }, paging, ctx), (e) =>
      e instanceof NotFound && /no version "v1999"/.test(e.messages[0]!.detail));
    await assert.rejects(() => normalizeListQuery({ datasets: ['public-global-gaps-events:latest'] }, paging, ctx), (e) =>
      e instanceof NotFound && /has no data loaded/.test(e.messages[0]!.detail));
  });

  test('a dataset the token may not read is a 403 naming it, before resolution', async () => {
    const fishingOnly = { catalog, access: { canRead: (id: string) => id === 'public-global-fishing-events' } };
    await assert.rejects(() => normalizeListQuery({ datasets: ['public-global-gaps-events:v404'] }, paging, fishingOnly), (e) =>
      e instanceof Forbidden && e.messages[0]!.detail === 'Insufficient permissions for public-global-gaps-events:v404 datasets');
  });

  test('by id takes exactly one dataset', async () => {
    assert.equal(normalizeSingleDataset('public-global-port-visits-c2-events:latest', ctx).resolved.versionId, 4);
  });
});

describe('filters', () => {
  test('operators default to INCLUDE; flags upper-cased, vessel types lower-cased; empty lists mean no filter', async () => {
    const q = await normalizeListQuery(
      { datasets: ['public-global-fishing-events:latest'], flags: ['chn'], vesselTypes: ['CARRIER'], vesselTypesOperator: 'EXCLUDE', vessels: [] },
      paging,
      ctx,
    );
    assert.deepEqual(q.flags, { values: ['CHN'], operator: 'INCLUDE' });
    assert.deepEqual(q.vesselTypes, { values: ['carrier'], operator: 'EXCLUDE' });
    assert.equal(q.vesselIds, undefined);
  });

  test('time window: OVERLAP by default, bounds in ms; start >= end is a 422 naming the parameters', async () => {
    const q = await normalizeListQuery({ datasets: ['public-global-fishing-events:latest'], startDate: '2020-01-01', endDate: '2020-02-01' }, paging, ctx);
    assert.deepEqual(q.time, { startMs: Date.UTC(2020, 0, 1), endMs: Date.UTC(2020, 1, 1), mode: 'OVERLAP' });
    await assert.rejects(
      () => normalizeListQuery({ datasets: ['public-global-fishing-events:latest'], startDate: '2020-02-01', endDate: '2020-02-01' }, paging, { ...ctx, spelling: (n) => (n === 'startDate' ? 'start-date' : n === 'endDate' ? 'end-date' : n) }),
      (e) => e instanceof InvalidParameters && e.messages[0]!.title === 'start-date' && /must be before end-date/.test(e.messages[0]!.detail),
    );
  });

  test('sort defaults to +start', async () => {
    assert.equal((await normalizeListQuery({ datasets: ['public-global-fishing-events:latest'] }, paging, ctx)).sort, '+start');
  });
});

// The tables kept per version beside the events (the statistics rollups, stats-rollups.ts; the
// vessel identities, identity-table.ts) for an update's version, from its base version's rows and
// what the update changed, rather than from every event of the version: the rows it added
// (`update_added`) and those it hid (`update_hidden`), kept apart by update.ts. Counts add and subtract; a month of a vessel, or the first
// and last time an identity was seen, can only be lost with a hidden row, and is looked up again
// among the version's events then, for those vessels alone.
import type pg from 'pg';
import type { VersionScope } from './lineage.ts';
import { SqlBuilder } from '../sql.ts';
import { IDENTITY_TIME, identityGroupsSql } from './identity-table.ts';

/** An update's new version, the version it applies to, and the partition both read. */
export interface LayeredVersion {
  versionId: number;
  baseId: number;
  partition: number;
  kind: string;
}

/** The rows `v` added, as a WHERE on `update_added e`. */
export function addedRows(b: SqlBuilder, v: LayeredVersion): string {
  return `e.kind = ${b.param(v.kind)}`;
}

/** The rows `v` hid from its base, as a WHERE on `update_hidden e`. */
export function hiddenRows(b: SqlBuilder, v: LayeredVersion): string {
  return `e.kind = ${b.param(v.kind)}`;
}

const monthOf = (ts: string) => `((extract(year FROM ${ts})::integer - 1970) * 12 + extract(month FROM ${ts})::integer - 1)`;

/** Writes `v`'s statistics rollups and lists it in stats_month_versions. */
export async function writeLayeredRollups(c: pg.ClientBase, v: LayeredVersion, scope: VersionScope): Promise<void> {
  const b = new SqlBuilder();
  const version = b.param(v.versionId);
  await c.query(
    `INSERT INTO stats_flag_months
     SELECT ${version}::smallint, month, vessel_flag, sum(n) FROM (
       SELECT month, vessel_flag, n FROM stats_flag_months WHERE version_id = ${b.param(v.baseId)}::smallint
       UNION ALL SELECT date_trunc('month', e.start_ts)::date, e.vessel_flag, count(*) FROM update_added e WHERE ${addedRows(b, v)} GROUP BY 1, 2
       UNION ALL SELECT date_trunc('month', e.start_ts)::date, e.vessel_flag, -count(*) FROM update_hidden e WHERE ${hiddenRows(b, v)} GROUP BY 1, 2) m(month, vessel_flag, n)
     GROUP BY 2, 3 HAVING sum(n) > 0`,
    b.params,
  );
  await writeVesselMonths(c, v, scope);
  await c.query('INSERT INTO stats_month_versions VALUES ($1)', [v.versionId]);
}

/** A vessel's months with events under one flag: stats_vessel_months' row as a set of month numbers. */
type MonthSet = Set<number>;
const pairKey = (vessel: string, flag: string | null) => JSON.stringify([vessel, flag]);

/**
 * stats_vessel_months of `v`: its base's rows with the months of the added rows set, and the months
 * of hidden rows cleared where no event of the vessel and flag is left in them. Only the rows of the
 * vessels the update touched are read and rewritten here; the others are the base's, copied as
 * they are by the server, as the identities are (writeLayeredIdentities).
 */
async function writeVesselMonths(c: pg.ClientBase, v: LayeredVersion, scope: VersionScope): Promise<void> {
  const monthsOf = async (source: string, where: (b: SqlBuilder) => string) => {
    const b = new SqlBuilder();
    const sql = `SELECT DISTINCT e.vessel_id, e.vessel_flag, ${monthOf('e.start_ts')} FROM ${source} e WHERE ${where(b)}`;
    return (await c.query({ text: sql, values: b.params, rowMode: 'array' })).rows as [string, string | null, number][];
  };
  const added = await monthsOf('update_added', (b) => addedRows(b, v));
  const hiddenMonths = await monthsOf('update_hidden', (b) => hiddenRows(b, v));
  const touched = [...new Set([...added, ...hiddenMonths].map((r) => r[0]))];
  const pairs = new Map<string, { vessel: string; flag: string | null; months: MonthSet }>();
  const base = (await c.query({ text: 'SELECT vessel_id, vessel_flag, first_month, months::text FROM stats_vessel_months WHERE version_id = $1 AND vessel_id = ANY($2::text[])', values: [v.baseId, touched], rowMode: 'array' })).rows as [string, string | null, number, string][];
  for (const [vessel, flag, first, bits] of base) {
    const months: MonthSet = new Set();
    for (let i = 0; i < bits.length; i++) if (bits[i] === '1') months.add(first + i);
    pairs.set(pairKey(vessel, flag), { vessel, flag, months });
  }
  const addedKeys = new Set(added.map(([vessel, flag, month]) => `${pairKey(vessel, flag)}${month}`));
  // A hidden row's month stays where an added row has it; otherwise it is looked up among the
  // version's events (the vessel's index, a month of it).
  const lost = hiddenMonths.filter(([vessel, flag, month]) => !addedKeys.has(`${pairKey(vessel, flag)}${month}`));
  if (lost.length > 0) {
    const b = new SqlBuilder();
    const [vessels, flags, months] = [b.param(lost.map((r) => r[0])), b.param(lost.map((r) => r[1])), b.param(lost.map((r) => r[2]))];
    const kept = (await c.query({
      text: `SELECT l.vessel_id, l.vessel_flag, l.month FROM unnest(${vessels}::text[], ${flags}::text[], ${months}::integer[]) AS l(vessel_id, vessel_flag, month)
              WHERE EXISTS (SELECT 1 FROM events e WHERE ${scope.rowsOf(b, v.versionId, 'e.')} AND e.vessel_id = l.vessel_id AND e.vessel_flag IS NOT DISTINCT FROM l.vessel_flag
                              AND e.start_ts >= make_timestamp(1970 + l.month / 12, l.month % 12 + 1, 1, 0, 0, 0)
                              AND e.start_ts < make_timestamp(1970 + (l.month + 1) / 12, (l.month + 1) % 12 + 1, 1, 0, 0, 0))`,
      values: b.params,
      rowMode: 'array',
    })).rows as [string, string | null, number][];
    const keptKeys = new Set(kept.map(([vessel, flag, month]) => `${pairKey(vessel, flag)}${month}`));
    for (const [vessel, flag, month] of lost) {
      if (!keptKeys.has(`${pairKey(vessel, flag)}${month}`)) pairs.get(pairKey(vessel, flag))?.months.delete(month);
    }
  }
  for (const [vessel, flag, month] of added) {
    const key = pairKey(vessel, flag);
    if (!pairs.has(key)) pairs.set(key, { vessel, flag, months: new Set() });
    pairs.get(key)!.months.add(month);
  }
  const rows = [...pairs.values()].filter((p) => p.months.size > 0).map((p) => {
    const sorted = [...p.months].sort((x, y) => x - y);
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    const bits = new Array<string>(last - first + 1).fill('0');
    for (const m of sorted) bits[m - first] = '1';
    return [p.vessel, p.flag, first, last, bits.join('')] as const;
  });
  await c.query(
    'INSERT INTO stats_vessel_months SELECT $1::smallint, vessel_id, vessel_flag, first_month, last_month, months FROM stats_vessel_months WHERE version_id = $2 AND vessel_id <> ALL($3::text[])',
    [v.versionId, v.baseId, touched],
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await c.query(
      'INSERT INTO stats_vessel_months SELECT $1::smallint, * FROM unnest($2::text[], $3::text[], $4::integer[], $5::integer[], $6::text[]::varbit[])',
      [v.versionId, ...[0, 1, 2, 3, 4].map((n) => chunk.map((r) => r[n]))],
    );
  }
}

/** Rows per INSERT of a version's rows. */
const CHUNK = 20_000;

/** An identity group: vessel id, MMSI, name, flag, type, gear; first and last seen (IDENTITY_TIME); events. */
export type IdentityGroup = [string, string | null, string | null, string | null, string | null, string | null, string, string, number];
const groupKey = (g: IdentityGroup) => JSON.stringify(g.slice(0, 6));

/**
 * vessel_identities of `v`: its base's groups, each with the added rows' counts and times (`added`,
 * their groups as the staged file gives them: DuckDB groups its typed columns where PostgreSQL
 * parses each row's record, 1.0-1.3 s of a 50,000-row update) and the hidden rows' counts taken
 * off. A group whose first or last time was a hidden row's, and that no added row reaches, has its
 * vessel's groups read again from the version's events: by the vessel's index, or for encounters
 * (whose rows name a second vessel) from all of them.
 */
export async function writeLayeredIdentities(c: pg.ClientBase, v: LayeredVersion, scope: VersionScope, added: readonly IdentityGroup[]): Promise<void> {
  const groupsOf = async (sql: string, params: unknown[]) => (await c.query({ text: sql, values: params, rowMode: 'array' })).rows as IdentityGroup[];
  const hidden = new SqlBuilder();
  const hiddenGroups = await groupsOf(identityGroupsSql('update_hidden', hiddenRows(hidden, v)), hidden.params);
  // Only the groups of the vessels the update touched are read and rewritten here; every other
  // vessel's are the base's, copied as they are by the server below. Every group of the base read
  // and written back from here (133,000 for the 10M catalogue's fishing version), and the vessel
  // months alike, the rollups and identities of an update took 6.4-10.0 s at 10M, 5.8-7.8 so
  // (docs/performance.md, "The PostgreSQL engine: updates").
  const touched = [...new Set([...hiddenGroups, ...added].map((g) => g[0]))];
  const groups = new Map<string, IdentityGroup>();
  for (const g of await groupsOf(`SELECT vessel_id, ssvid, shipname, flag, type, gear_type, to_char(first_seen, ${IDENTITY_TIME}), to_char(last_seen, ${IDENTITY_TIME}), events::float8 FROM vessel_identities WHERE version_id = $1 AND vessel_id = ANY($2::text[])`, [v.baseId, touched])) {
    groups.set(groupKey(g), g);
  }
  const addedGroups = new Map(added.map((g) => [groupKey(g), g]));
  const stale = new Set<string>();
  for (const h of hiddenGroups) {
    const key = groupKey(h);
    const g = groups.get(key)!;
    const a = addedGroups.get(key);
    g[8] -= h[8];
    if ((h[6] === g[6] && !(a && a[6] <= g[6])) || (h[7] === g[7] && !(a && a[7] >= g[7]))) stale.add(g[0]);
  }
  for (const [key, a] of addedGroups) {
    const g = groups.get(key);
    if (!g) groups.set(key, a);
    else {
      g[6] = a[6] < g[6] ? a[6] : g[6];
      g[7] = a[7] > g[7] ? a[7] : g[7];
      g[8] += a[8];
    }
  }
  for (const [key, g] of groups) if (g[8] <= 0 || stale.has(g[0])) groups.delete(key);
  if (stale.size > 0) {
    const b = new SqlBuilder();
    const vessels = b.param([...stale]);
    const where = `${scope.rowsOf(b, v.versionId, 'e.')} AND v.id = ANY(${vessels}::text[])${v.kind === 'encounter' ? '' : ` AND e.vessel_id = ANY(${vessels}::text[])`}`;
    for (const g of await groupsOf(identityGroupsSql('events', where), b.params)) groups.set(groupKey(g), g);
  }
  await c.query(
    `INSERT INTO vessel_identities SELECT $1::smallint, vessel_id, ssvid, shipname, flag, type, gear_type, first_seen, last_seen, events FROM vessel_identities WHERE version_id = $2 AND vessel_id <> ALL($3::text[])`,
    [v.versionId, v.baseId, touched],
  );
  const rows = [...groups.values()];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await c.query(
      `INSERT INTO vessel_identities SELECT $1::smallint, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamp[], $9::timestamp[], $10::bigint[])`,
      [v.versionId, ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => chunk.map((r) => r[n]))],
    );
  }
  await c.query('INSERT INTO identity_versions VALUES ($1)', [v.versionId]);
}

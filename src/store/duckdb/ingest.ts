// The loader's SQL. Every source (NDJSON lines, CSV, Parquet, the demo generator) gives each row's
// top-level fields as text: read from one JSON document per row (file_no, file, line, doc), or, for
// a table DuckDB reads itself (CSV, Parquet), taken from its columns (tableSourceSql). One generated
// query validates each row (the first failing check becomes its `problem`, naming the field) and
// builds the typed event columns. The checks and the typed kind blocks come from the layout
// declarations.
import { EVENT_INFO_FIELDS } from '../../domain/event-info.ts';
import { DISTANCE_FIELDS } from '../../domain/record.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EVENT_KINDS, type EventKind } from '../../domain/kinds.ts';
import { fieldPaths, infoChecks, structFromJson, VESSEL_LIST_JSON_SHAPE, type Check, type JsonAccess } from './layout-sql.ts';
import { sqlText } from '../sql.ts';

/** Columns every staged source provides: one JSON document per row and where it came from. */
export const RAW_COLUMNS = 'file_no INTEGER, file VARCHAR, line BIGINT, doc VARCHAR';

// Each document is parsed once for all top-level fields, and event_info once for all of its
// declared paths: per-path extraction would parse a ~1 KB document a hundred times per row.
const TOP_FIELDS = [
  'event_id', 'event_type', 'entity_id', 'seg_id', 'event_start', 'event_end', 'lat_mean', 'lon_mean', 'lat_min', 'lat_max', 'lon_min', 'lon_max',
  ...DISTANCE_FIELDS.map((d) => d.source), 'event_info', 'event_vessels', 'regions_mean_position',
];
const TOP_PATHS = `[${TOP_FIELDS.map((f) => `'$.${f}'`).join(', ')}]`;
const slot = (name: string) => {
  const i = TOP_FIELDS.indexOf(name);
  if (i < 0) throw new Error(`undeclared field ${name}`);
  return i + 1;
};
const field = (name: string) => `top[${slot(name)}]`;
const given = (name: string) => `coalesce(${field(name)}, '') <> ''`;
const timestamp = (name: string) => `TRY_CAST(regexp_replace(${field(name)}, ' UTC$', 'Z') AS TIMESTAMPTZ)::TIMESTAMP`;
/**
 * A row's JSON document: staged, or (for a table) written from the row only where a message quotes
 * it. Writing it for every row and parsing it again cost 38 % of reading a Parquet file
 * (docs/performance.md, "Rows made, read and written without waste").
 */
type DocumentOf = 'doc' | 'to_json(row_value)::VARCHAR';
const gotFrom = (doc: DocumentOf) => (name: string) => `json_extract(${doc}, '$.${name}')::VARCHAR`;
// Whether valid JSON text is an object ('{') or an array ('['): its first non-blank character
// tells, without the parse a json_type call costs.
const jsonOpensWith = (json: string, bracket: '{' | '[') => `coalesce(ltrim(${json}, ' \t\n\r')[1] = '${bracket}', false)`;

const infoPaths = Object.fromEntries(EVENT_KINDS.map((k) => [k, fieldPaths(EVENT_INFO_FIELDS[k])])) as Record<EventKind, string[]>;
// Only object fields need their JSON type (is it an object?); scalars are judged by their text.
// Each json_type call parses the document again, so it asks for the object paths alone.
const objectPaths = Object.fromEntries(EVENT_KINDS.map((k) => [k, fieldPaths(EVENT_INFO_FIELDS[k], '$', true)])) as Record<EventKind, string[]>;
function infoAccess(kind: EventKind): JsonAccess {
  const slotOf = (paths: string[], path: string) => {
    const i = paths.indexOf(path);
    if (i < 0) throw new Error(`undeclared path ${path} of ${kind}`);
    return i + 1;
  };
  return { text: (path) => `info_text[${slotOf(infoPaths[kind], path)}]`, type: (path) => `info_type[${slotOf(objectPaths[kind], path)}]` };
}
const infoGot = (path: string) => `json_extract(info, '${path}')::VARCHAR`;
const perKind = (fn: (k: EventKind) => string) => `CASE kind ${EVENT_KINDS.map((k) => `WHEN ${sqlText(k)} THEN ${fn(k)}`).join(' ')} END`;

function numberChecks(got: (name: string) => string, name: string, required: boolean, min: number, max: number): Check[] {
  const checks: Check[] = [];
  if (required) checks.push({ when: `NOT ${given(name)}`, message: sqlText(`${name}: is required`) });
  checks.push({
    when: `${given(name)} AND coalesce(TRY_CAST(${field(name)} AS DOUBLE) NOT BETWEEN ${min} AND ${max}, true)`,
    message: `${sqlText(`${name}: must be a number in [${min}, ${max}], got `)} || ${got(name)}`,
  });
  return checks;
}

function rowChecks(datasetKind: EventKind | undefined, documentOf: DocumentOf): Check[] {
  const got = gotFrom(documentOf);
  const kinds = EVENT_KINDS.join(', ');
  const kindChecks: Check[] = [
    { when: `${given('event_type')} AND lower(${field('event_type')}) NOT IN (${EVENT_KINDS.map(sqlText).join(', ')})`, message: `${sqlText(`event_type: must be one of ${kinds}, got `)} || ${got('event_type')}` },
  ];
  if (datasetKind) {
    kindChecks.push({ when: `${given('event_type')} AND lower(${field('event_type')}) <> ${sqlText(datasetKind)}`, message: `'event_type: is "' || lower(${field('event_type')}) || '" but --dataset is ${datasetKind}'` });
  } else {
    kindChecks.push({ when: `NOT ${given('event_type')}`, message: sqlText('event_type: is missing; give it in the row or choose the dataset with --dataset') });
  }
  const infoByKind = EVENT_KINDS.flatMap((k) =>
    infoChecks(EVENT_INFO_FIELDS[k], infoAccess(k), infoGot, k, 'event_info').map((c) => ({ when: `kind = ${sqlText(k)} AND (${c.when})`, message: c.message })),
  );
  return [
    { when: `top IS NULL`, message: sqlText('row: not valid JSON') },
    // A table's row is an object by construction.
    ...(documentOf === 'doc' ? [{ when: `NOT ${jsonOpensWith('doc', '{')}`, message: sqlText('row: must be a JSON object') }] : []),
    { when: `NOT ${given('event_id')}`, message: sqlText('event_id: is required') },
    ...kindChecks,
    { when: `NOT ${given('entity_id')}`, message: sqlText('entity_id: is required') },
    { when: `NOT ${given('event_start')}`, message: sqlText('event_start: is required') },
    { when: `start_ts IS NULL`, message: `'event_start: must be an ISO 8601 timestamp, got ' || ${got('event_start')}` },
    { when: `${given('event_end')} AND end_ts IS NULL`, message: `'event_end: must be an ISO 8601 timestamp or null, got ' || ${got('event_end')}` },
    { when: `end_ts < start_ts`, message: sqlText('event_end: must not be before event_start') },
    ...numberChecks(got, 'lat_mean', true, -90, 90),
    ...numberChecks(got, 'lon_mean', true, -180, 180),
    ...numberChecks(got, 'lat_min', false, -90, 90),
    ...numberChecks(got, 'lat_max', false, -90, 90),
    ...numberChecks(got, 'lon_min', false, -180, 180),
    ...numberChecks(got, 'lon_max', false, -180, 180),
    { when: `${given('regions_mean_position')} AND (region_types IS NULL OR NOT ${jsonOpensWith('regions_json', '{')})`, message: sqlText('regions_mean_position: must be a JSON object (or a string holding one)') },
    ...REGION_MEMBERS.map((m, i) => ({
      when: `region_types[${i + 1}] NOT IN ('ARRAY', 'NULL')`,
      message: sqlText(`regions_mean_position: ${m.source} must be an array of region ids`),
    })),
    ...DISTANCE_FIELDS.flatMap((d) => numberChecks(got, d.source, false, -1e9, 1e9)),
    { when: `NOT ${given('event_info')}`, message: sqlText('event_info: is required') },
    { when: `info_text IS NULL OR NOT ${jsonOpensWith('info', '{')}`, message: sqlText('event_info: must be a JSON object (or a string holding one)') },
    ...infoByKind,
    { when: `kind = 'port_visit' AND TRY_CAST(${infoAccess('port_visit').text('$.confidence')} AS INTEGER) NOT IN (2, 3, 4)`, message: `'event_info: confidence must be 2, 3 or 4, got ' || ${infoGot('$.confidence')}` },
    { when: `NOT ${given('event_vessels')}`, message: sqlText('event_vessels: is required') },
    { when: `vessel_list IS NULL OR NOT ${jsonOpensWith('vessels_json', '[')} OR len(vessel_list) = 0`, message: sqlText('event_vessels: must be a non-empty JSON array (or a string holding one)') },
    { when: `len(list_filter(vessel_list, v -> coalesce(v.id, '') = '')) > 0`, message: sqlText('event_vessels: every element must be an object with a string id') },
    { when: `main_vessel IS NULL`, message: `'event_vessels: must contain the vessel of entity_id "' || ${field('entity_id')} || '"'` },
    { when: `kind = 'encounter' AND (len(vessel_list) <> 2 OR other_vessel IS NULL)`, message: sqlText('event_vessels: an encounter row must list exactly two different vessels') },
  ];
}

/** A table DuckDB reads itself (CSV, Parquet): its columns and types, and where its rows come from. */
export interface TableSource {
  fileNo: number;
  file: string;
  /** A table function, as `read_parquet(...)`. */
  tableFunction: string;
  /** Each row's line in its file, over the table function's columns. */
  lineOf: string;
  /** The table's columns, as DESCRIBE gives them. */
  columns: { name: string; type: string }[];
}

/**
 * A top-level field's text from a table's column, as json_extract_string gives it from the row's
 * JSON (to_json of the row): a string as it is, a nested value as its JSON text, any other value
 * in DuckDB's spelling, which its JSON writer shares.
 */
function columnText(column: { name: string; type: string } | undefined): string {
  if (!column) return 'NULL::VARCHAR';
  const ref = `t."${column.name.replace(/"/g, '""')}"`;
  if (column.type === 'VARCHAR') return ref;
  if (/^(STRUCT|MAP|UNION|JSON)|\[\d*\]$/.test(column.type)) return `to_json(${ref})::VARCHAR`;
  return `${ref}::VARCHAR`;
}

/** A table's rows as the ingest takes them: file_no, file, line, the top-level fields' texts and the row. */
export function tableSourceSql(source: TableSource): string {
  // JSON paths are case-sensitive: a column counts when its name is the field's exactly.
  const top = TOP_FIELDS.map((name) => columnText(source.columns.find((c) => c.name === name)));
  return `(SELECT ${source.fileNo}::INTEGER AS file_no, ${sqlText(source.file)} AS file, (${source.lineOf})::BIGINT AS line,
    [${top.join(', ')}] AS top, t AS row_value FROM ${source.tableFunction} t)`;
}

/**
 * The query that turns staged rows into typed event columns plus `problem` (null for good rows).
 * `source` is a relation with RAW_COLUMNS (a staging table), or a table's rows (tableSourceSql).
 */
export function compileIngest(datasetKind: EventKind | undefined, source: string | { table: string }): string {
  const documentOf: DocumentOf = typeof source === 'string' ? 'doc' : 'to_json(row_value)::VARCHAR';
  const topLevel = typeof source === 'string'
    ? `SELECT file_no, file, line, doc, TRY(json_extract_string(doc, ${TOP_PATHS})) AS top FROM ${source}`
    : `SELECT file_no, file, line, row_value, top FROM ${source.table}`;
  const checks = rowChecks(datasetKind, documentOf);
  const problem = `CASE ${checks.map((c) => `WHEN ${c.when} THEN ${c.message}`).join(' ')} END`;
  const kindExpr = datasetKind ? `coalesce(lower(${field('event_type')}), ${sqlText(datasetKind)})` : `lower(${field('event_type')})`;
  const regionsShape = JSON.stringify(Object.fromEntries(REGION_MEMBERS.map((m) => [m.source, ['VARCHAR']])));
  const normalizedVessel = (v: string) =>
    `struct_pack(id := ${v}.id, ssvid := ${v}.ssvid, name := ${v}.name, flag := upper(${v}.flag), type := lower(${v}.type), gear_type := ${v}.gear_type, public_authorizations := ${v}.public_authorizations, next_port := ${v}.next_port)`;
  return `
WITH top_level AS (
  ${topLevel}
), columns AS (
  SELECT *,
    ${kindExpr} AS kind,
    ${timestamp('event_start')} AS start_ts,
    ${timestamp('event_end')} AS end_ts,
    -- event_info, event_vessels and regions may be JSON values or strings holding JSON (BigQuery,
    -- CSV): the extracted text is the JSON either way; invalid JSON makes its TRY below NULL.
    ${field('event_info')} AS info,
    ${field('event_vessels')} AS vessels_json,
    ${field('regions_mean_position')} AS regions_json
  FROM top_level
), vessels AS (
  SELECT *,
    TRY(json_transform(vessels_json, '${VESSEL_LIST_JSON_SHAPE}')) AS vessel_list,
    TRY(json_transform(regions_json, '${regionsShape}')) AS region_lists,
    TRY(json_type(regions_json, [${REGION_MEMBERS.map((m) => `'$.${m.source}'`).join(', ')}])) AS region_types,
    ${perKind((k) => `TRY(json_extract_string(info, [${infoPaths[k].map((p) => `'${p}'`).join(', ')}]))`)} AS info_text,
    ${perKind((k) => (objectPaths[k].length ? `TRY(json_type(info, [${objectPaths[k].map((p) => `'${p}'`).join(', ')}]))` : 'NULL::VARCHAR[]'))} AS info_type
  FROM columns
), picked AS (
  SELECT *,
    list_filter(vessel_list, v -> v.id = ${field('entity_id')})[1] AS main_vessel,
    CASE WHEN kind = 'encounter' THEN list_filter(vessel_list, v -> v.id <> ${field('entity_id')})[1] END AS other_vessel
  FROM vessels
)
SELECT file_no, file, line, ${problem} AS problem,
  CASE WHEN kind = 'encounter' AND NOT regexp_matches(${field('event_id')}, '\\.[12]$')
       THEN ${field('event_id')} || '.' || list_position(list_transform(vessel_list, v -> v.id), ${field('entity_id')})::VARCHAR
       ELSE ${field('event_id')} END AS id,
  kind,
  ${field('entity_id')} AS vessel_id,
  ${field('seg_id')} AS seg_id,
  start_ts, end_ts,
  TRY_CAST(${field('lat_mean')} AS DOUBLE) AS lat,
  TRY_CAST(${field('lon_mean')} AS DOUBLE) AS lon,
  coalesce(TRY_CAST(${field('lon_min')} AS DOUBLE), TRY_CAST(${field('lon_mean')} AS DOUBLE)) AS lon_min,
  coalesce(TRY_CAST(${field('lat_min')} AS DOUBLE), TRY_CAST(${field('lat_mean')} AS DOUBLE)) AS lat_min,
  coalesce(TRY_CAST(${field('lon_max')} AS DOUBLE), TRY_CAST(${field('lon_mean')} AS DOUBLE)) AS lon_max,
  coalesce(TRY_CAST(${field('lat_max')} AS DOUBLE), TRY_CAST(${field('lat_mean')} AS DOUBLE)) AS lat_max,
  ${REGION_MEMBERS.map((m) => `coalesce(region_lists.${m.source}, []::VARCHAR[]) AS ${m.column}`).join(',\n  ')},
  ${DISTANCE_FIELDS.map((d) => `TRY_CAST(${field(d.source)} AS DOUBLE) AS ${d.source}`).join(',\n  ')},
  main_vessel.ssvid AS vessel_ssvid,
  main_vessel.name AS vessel_name,
  upper(main_vessel.flag) AS vessel_flag,
  lower(main_vessel.type) AS vessel_type,
  main_vessel.gear_type AS vessel_gear_type,
  main_vessel.public_authorizations AS vessel_authorizations,
  CASE WHEN main_vessel.next_port.id IS NOT NULL THEN main_vessel.next_port END AS next_port,
  CASE WHEN other_vessel IS NOT NULL THEN ${normalizedVessel('other_vessel')} END AS other_vessel,
  ${EVENT_KINDS.map((k) => `CASE WHEN kind = ${sqlText(k)} THEN ${structFromJson(EVENT_INFO_FIELDS[k], infoAccess(k))} END AS ${k}`).join(',\n  ')}
FROM picked`;
}

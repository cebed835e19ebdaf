// The map explorer: a form, a map and a chart over the service's own API, called from the browser
// with the user's token. No build step; it runs as it is, with MapLibre GL JS and uPlot served
// beside it (src/http/routes/explorer.ts).
'use strict';

const COLORS = { fishing: '#1f77b4', encounter: '#d62728', loitering: '#ff7f0e', port_visit: '#2ca02c', gap: '#9467bd' };
const KIND_LABELS = { fishing: 'fishing', encounter: 'encounters', loitering: 'loitering', port_visit: 'port visits', gap: 'AIS gaps' };
/** The event type gfwr names each kind by. */
const GFWR_TYPES = { fishing: 'FISHING', encounter: 'ENCOUNTER', loitering: 'LOITERING', port_visit: 'PORT_VISIT', gap: 'GAP' };
const GFWR_REGION_SOURCES = { 'public-eez-areas': 'EEZ', 'public-mpa-all': 'MPA', 'public-rfmo': 'RFMO' };
const $ = (id) => document.getElementById(id);

/** What the page holds; exposed for tests and the console. */
const state = { tileUrl: null, region: null, box: null, entries: new Map(), chart: null, total: null, shown: 0, timeseries: [], ready: false, kindsOfDataset: new Map(), vessel: null };
window.explorer = state;

// The token stays in this browser only.
$('token').value = localStorage.getItem('vessel-events-token') || '';
$('token').addEventListener('change', () => localStorage.setItem('vessel-events-token', $('token').value.trim()));

async function api(path, body) {
  const res = await fetch(path, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${$('token').value.trim()}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) {
    let detail = `HTTP ${res.status}`;
    let messages = [];
    try {
      const error = await res.json();
      detail = error.messages.map((m) => `${m.title}: ${m.detail}`).join('; ');
      messages = error.messages;
    } catch { /* not the API's JSON error */ }
    // Callers tell a missing dataset (404) or a refused query (422) from other failures.
    throw Object.assign(new Error(detail), { status: res.status, messages });
  }
  return res.json();
}

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

// Datasets: the versions `latest` resolves to, from /readyz (no token needed).
async function loadDatasets() {
  const box = $('datasets');
  try {
    const ready = await (await fetch('../readyz')).json();
    for (const name of ready.latest ?? []) {
      const id = name.slice(0, name.lastIndexOf(':'));
      // public-global-fishing-events, -encounters-, -loitering-, -port-visits-, -gaps-.
      const kind = Object.keys(KIND_LABELS).find((k) => id.includes(k.replace('_', '-'))) ?? 'fishing';
      state.kindsOfDataset.set(`${id}:latest`, kind);
      const label = document.createElement('label');
      label.innerHTML = `<input type="checkbox" value="${id}:latest"${kind === 'fishing' ? ' checked' : ''}> <span></span>`;
      label.querySelector('span').textContent = `${KIND_LABELS[kind] ?? kind} (${id})`;
      box.append(label);
    }
    if (!ready.latest?.length) status('No data is loaded yet.', true);
  } catch (e) {
    status(`Could not read the loaded datasets: ${e.message}`, true);
  }
}

const map = new maplibregl.Map({
  container: 'map',
  style: {
    version: 8,
    sources: { land: { type: 'geojson', data: 'land.geojson', attribution: 'Land: Natural Earth' } },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#d6e6f2' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f2f0e8', 'fill-outline-color': '#a9a48f' } },
    ],
  },
  center: [0, 15],
  zoom: 1.2,
  // Vector tiles of events are the API's: they carry the token as every other request does.
  transformRequest: (url) => (url.includes('/v3/events/tiles/') ? { url, headers: { authorization: `Bearer ${$('token').value.trim()}` } } : { url }),
});
/** From this zoom on, tiles carry each event (src/shape/vector-tile.ts, POINT_ZOOM); below it, counts on a grid. */
const POINT_ZOOM = 10;
const empty = () => ({ type: 'FeatureCollection', features: [] });
const kindColor = ['match', ['get', 'type'], ...Object.entries(COLORS).flat(), '#555'];
/** Layers added later (a vessel's track) wait for the map's style. */
const mapLoaded = new Promise((resolve) => map.on('load', resolve));

map.on('load', () => {
  map.addSource('region', { type: 'geojson', data: empty() });
  map.addSource('box', { type: 'geojson', data: empty() });
  map.addSource('events', { type: 'geojson', data: empty() });
  map.addLayer({ id: 'region-fill', type: 'fill', source: 'region', paint: { 'fill-color': '#0b5cad', 'fill-opacity': 0.08 } });
  map.addLayer({ id: 'region-line', type: 'line', source: 'region', paint: { 'line-color': '#0b5cad', 'line-width': 1.5 } });
  map.addLayer({ id: 'box-line', type: 'line', source: 'box', paint: { 'line-color': '#b00020', 'line-width': 1.5, 'line-dasharray': [2, 1] } });
  map.addLayer({
    id: 'events', type: 'circle', source: 'events',
    paint: {
      'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 2.5, 6, 5],
      'circle-color': kindColor,
      'circle-stroke-color': '#fff', 'circle-stroke-width': 0.5,
    },
  });
  // A vessel's points come and go with its panel; MapLibre skips a listener's layer while it is absent.
  for (const layer of ['events', 'tile-events', 'vessel-points']) {
    map.on('click', layer, (e) => showEntry(e.features[0].properties.id, e.features[0].properties.type));
    map.on('mouseenter', layer, () => { map.getCanvas().style.cursor = 'pointer'; });
    map.on('mouseleave', layer, () => { map.getCanvas().style.cursor = ''; });
  }
  state.ready = true;
});
state.map = map;

for (const [kind, color] of Object.entries(COLORS)) {
  const li = document.createElement('li');
  li.innerHTML = `<span style="background:${color}"></span>`;
  li.append(KIND_LABELS[kind]);
  $('legend').append(li);
}

async function showEntry(id, kind) {
  let entry = state.entries.get(id) ?? state.vessel?.entries.get(id);
  // A point of the vector tiles that the page did not list: asked for by its id and dataset.
  const dataset = [...state.kindsOfDataset].find(([, k]) => k === kind)?.[0];
  if (!entry && dataset) entry = await api(`../v3/events/${encodeURIComponent(id)}?dataset=${encodeURIComponent(dataset)}`).catch((e) => status(e.message, true));
  if (!entry) return;
  $('entry-json').textContent = JSON.stringify(entry, null, 2);
  $('entry').hidden = false;
}

/** The list's filters of a body as a tile's query string (no geometry: the tile is the area). */
function tileQuery(body) {
  const q = new URLSearchParams({ datasets: body.datasets.join(','), 'start-date': body.startDate, 'end-date': body.endDate });
  if (body.flags) q.set('flags', body.flags.join(','));
  if (body.region) { q.set('region-datasets', body.region.dataset); q.set('region-ids', body.region.id); }
  return q.toString();
}

/**
 * Every matching event on the map, from the API's vector tiles: density on a grid below POINT_ZOOM,
 * each event from it on. A drawn box is a geometry, which tiles do not take: the page's points alone
 * are drawn then.
 */
function showTiles(body) {
  for (const layer of ['tile-cells', 'tile-events']) if (map.getLayer(layer)) map.removeLayer(layer);
  if (map.getSource('tiles')) map.removeSource('tiles');
  state.tileUrl = null;
  if (body.geometry) return;
  state.tileUrl = `${new URL('../v3/events/tiles/', window.location.href).href}{z}/{x}/{y}.pbf?${tileQuery(body)}`;
  map.addSource('tiles', { type: 'vector', tiles: [state.tileUrl], maxzoom: POINT_ZOOM });
  map.addLayer({
    id: 'tile-cells', type: 'circle', source: 'tiles', 'source-layer': 'cells', maxzoom: POINT_ZOOM,
    paint: {
      'circle-radius': ['interpolate', ['linear'], ['ln', ['get', 'count']], 0, 2, 12, 10],
      'circle-color': ['interpolate', ['linear'], ['ln', ['get', 'count']], 0, '#9ecae1', 6, '#3182bd', 12, '#08306b'],
      'circle-opacity': 0.6,
    },
  }, 'events');
  map.addLayer({ id: 'tile-events', type: 'circle', source: 'tiles', 'source-layer': 'events', minzoom: POINT_ZOOM, paint: { 'circle-radius': 4, 'circle-color': kindColor, 'circle-stroke-color': '#fff', 'circle-stroke-width': 0.5 } }, 'events');
}
$('entry-close').addEventListener('click', () => { $('entry').hidden = true; });

// An area: a region (its loaded outline drawn) or a box drawn on the map; one at a time.
$('region-dataset').addEventListener('change', async () => {
  const dataset = $('region-dataset').value;
  $('region-id').value = '';
  $('region-id').disabled = !dataset;
  $('region-options').replaceChildren();
  if (!dataset) return clearArea();
  try {
    for (const r of await api(`../v3/datasets/${dataset}/context-layers`)) {
      const option = document.createElement('option');
      option.value = `${r.label} (${r.id})`;
      $('region-options').append(option);
    }
  } catch (e) {
    $('area-note').textContent = `Regions could not be listed: ${e.message}`;
  }
});

$('region-id').addEventListener('change', async () => {
  const dataset = $('region-dataset').value;
  const text = $('region-id').value.trim();
  const id = /\(([^()]+)\)$/.exec(text)?.[1] ?? text;
  if (!dataset || !id) return;
  state.region = { dataset, id };
  state.box = null;
  map.getSource('box').setData(empty());
  try {
    const outline = await api(`../v3/datasets/${dataset}/context-layers/${encodeURIComponent(id)}`);
    map.getSource('region').setData(outline);
    map.fitBounds(boundsOf(outline.geometry.coordinates), { padding: 30, maxZoom: 7 });
    $('area-note').textContent = `Events in ${outline.properties.label}.`;
  } catch {
    map.getSource('region').setData(empty());
    $('area-note').textContent = `Events tagged with region ${id} (no outline loaded).`;
  }
});

function boundsOf(polygons) {
  let [w, s, e, n] = [180, 90, -180, -90];
  for (const polygon of polygons) for (const [x, y] of polygon[0]) [w, s, e, n] = [Math.min(w, x), Math.min(s, y), Math.max(e, x), Math.max(n, y)];
  return [[w, s], [e, n]];
}

let drawing = false;
let corner = null;
$('draw-box').addEventListener('click', () => {
  drawing = true;
  map.dragPan.disable();
  map.getCanvas().style.cursor = 'crosshair';
  $('area-note').textContent = 'Drag on the map to draw the box.';
});
map.on('mousedown', (e) => { if (drawing) corner = e.lngLat; });
map.on('mousemove', (e) => { if (drawing && corner) setBox(corner, e.lngLat, false); });
map.on('mouseup', (e) => {
  if (!drawing || !corner) return;
  setBox(corner, e.lngLat, true);
  drawing = false;
  corner = null;
  map.dragPan.enable();
  map.getCanvas().style.cursor = '';
});

function boxPolygon([w, s, e, n]) {
  return { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
}

function setBox(a, b, done) {
  const round = (x) => Math.round(x * 1000) / 1000;
  state.box = [round(Math.min(a.lng, b.lng)), round(Math.min(a.lat, b.lat)), round(Math.max(a.lng, b.lng)), round(Math.max(a.lat, b.lat))];
  map.getSource('box').setData({ type: 'Feature', properties: {}, geometry: boxPolygon(state.box) });
  if (done) {
    state.region = null;
    $('region-dataset').value = '';
    $('region-id').value = '';
    $('region-id').disabled = true;
    map.getSource('region').setData(empty());
    $('area-note').textContent = `Box ${state.box.join(', ')} (west, south, east, north).`;
  }
}

function clearArea() {
  state.region = null;
  state.box = null;
  map.getSource('region').setData(empty());
  map.getSource('box').setData(empty());
  $('area-note').textContent = '';
}
$('clear-area').addEventListener('click', () => {
  $('region-dataset').value = '';
  $('region-id').value = '';
  $('region-id').disabled = true;
  clearArea();
});

/** The request body the form stands for, as the API takes it. */
function requestBody() {
  const datasets = [...document.querySelectorAll('#datasets input:checked')].map((i) => i.value);
  const flags = $('flags').value.split(/[\s,]+/).map((f) => f.trim().toUpperCase()).filter(Boolean);
  return {
    datasets,
    startDate: $('start').value,
    endDate: $('end').value,
    ...(flags.length ? { flags } : {}),
    ...(state.region ? { region: state.region } : {}),
    ...(state.box ? { geometry: boxPolygon(state.box) } : {}),
  };
}

/** Buckets for the chart: days for two months or less, months up to three years, then years. */
function intervalOf(start, end) {
  const days = (Date.parse(end) - Date.parse(start)) / 86400000;
  return days <= 62 ? 'DAY' : days <= 3 * 366 ? 'MONTH' : 'YEAR';
}

$('run').addEventListener('click', run);

async function run() {
  const body = requestBody();
  if (!body.datasets.length) return status('Pick at least one dataset.', true);
  if (!$('token').value.trim()) return status('Paste a token first (vessel-events token create).', true);
  const limit = Number($('limit').value);
  status('Asking…');
  writeCode(body, limit);
  try {
    const interval = intervalOf(body.startDate, body.endDate);
    const [page, stats] = await Promise.all([
      api(`../v3/events?limit=${limit}&offset=0&format=geojson`, body),
      api('../v3/events/stats', { ...body, timeseriesInterval: interval, includes: ['TOTAL_COUNT', 'TIME_SERIES'] }),
    ]);
    state.entries = new Map(page.features.map((f) => [f.id, f.properties]));
    const points = page.features.filter((f) => f.geometry).map((f) => ({ type: 'Feature', geometry: f.geometry, properties: { id: f.id, type: f.properties.type } }));
    map.getSource('events').setData({ type: 'FeatureCollection', features: points });
    state.total = page.total;
    state.shown = points.length;
    state.timeseries = stats.timeseries;
    writeParquetCode(body);
    showTiles(body);
    const all = body.geometry ? '' : ` All of them are on the map: density below zoom ${POINT_ZOOM}, each event from it.`;
    status(`${page.total.toLocaleString('en')} events match (${stats.numVessels.toLocaleString('en')} vessels); ${points.length.toLocaleString('en')} shown as points${page.total > points.length ? ', the first by start' : ''}.${all} Click a point for its entry.`);
    drawChart(stats.timeseries, interval);
  } catch (e) {
    status(e.message, true);
  }
}

function drawChart(timeseries, interval) {
  state.chart?.destroy();
  $('chart-panel').hidden = false;
  const container = $('chart');
  container.replaceChildren();
  const xs = timeseries.map((t) => Date.parse(t.date) / 1000);
  const ys = timeseries.map((t) => t.value);
  state.chart = new uPlot({
    width: container.clientWidth || 320,
    height: 170,
    title: `Events per ${interval.toLowerCase()}`,
    // Counts from zero, so that a year with a few more events does not look like a surge.
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
    series: [{}, { label: 'events', stroke: '#0b5cad', fill: 'rgba(11, 92, 173, 0.15)', points: { size: 4 } }],
  }, [xs, ys], container);
}

// The same request in curl, the Python client and gfwr.
function writeCode(body, limit) {
  const origin = window.location.origin;
  const json = JSON.stringify(body);
  $('curl').textContent = `curl -X POST "${origin}/v3/events?limit=${limit}&offset=0" \\\n  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\\n  -d '${json.replaceAll("'", "'\\''")}'`;

  const py = (v) => JSON.stringify(v).replaceAll('true', 'True').replaceAll('false', 'False').replaceAll('null', 'None');
  const pyArgs = [
    `datasets=${py(body.datasets)}`, `start_date="${body.startDate}"`, `end_date="${body.endDate}"`,
    ...(body.flags ? [`flags=${py(body.flags)}`] : []),
    ...(body.region ? [`region=${py(body.region)}`] : []),
    ...(body.geometry ? [`geometry=${py(body.geometry)}`] : []),
    // The client asks for events of 90 minutes or more unless told otherwise.
    'duration=0', `limit=${limit}`, 'offset=0',
  ];
  $('python').textContent = `import gfwapiclient as gfw\n\nclient = gfw.Client(access_token="YOUR_TOKEN", base_url="${origin}/v3/")\nresult = client.events.get_events(\n    ${pyArgs.join(',\n    ')},\n)\ndf = result.df()`;

  const source = body.region && GFWR_REGION_SOURCES[body.region.dataset];
  const regionArgs = body.geometry
    ? [`region = sf::st_as_sf(sf::st_as_sfc(sf::st_bbox(c(xmin = ${state.box[0]}, ymin = ${state.box[1]}, xmax = ${state.box[2]}, ymax = ${state.box[3]}), crs = 4326)))`, 'region_source = "USER_SHAPEFILE"']
    : source ? [`region = ${source === 'RFMO' ? `"${body.region.id}"` : body.region.id}`, `region_source = "${source}"`] : [];
  const calls = body.datasets.map((d) => {
    const args = [
      `event_type = "${GFWR_TYPES[state.kindsOfDataset.get(d)] ?? 'FISHING'}"`, `start_date = "${body.startDate}"`, `end_date = "${body.endDate}"`,
      ...(body.flags ? [`flags = c(${body.flags.map((f) => `"${f}"`).join(', ')})`] : []),
      ...regionArgs, 'duration = 0', 'key = "YOUR_TOKEN"',
    ];
    return `gfw_event(\n  ${args.join(',\n  ')}\n)`;
  });
  $('r').textContent = `library(gfwr)\n# gfwr calls the GFW gateway: point that address at ${origin} (README, "Official clients").\n${calls.join('\n')}`;
  writeParquetCode(body);
}

// Every matching event in one file, whatever the page size the map shows: the limit is the total.
function writeParquetCode(body) {
  const limit = Math.max(1, state.total || 1);
  const json = JSON.stringify(body).replaceAll("'", "'\\''");
  $('parquet').textContent = `curl -X POST "${window.location.origin}/v3/events?limit=${limit}&offset=0&format=parquet" \\\n  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\\n  -d '${json}' -o events.parquet\n\n# Python: import geopandas; events = geopandas.read_parquet("events.parquet")\n# R: events <- sfarrow::st_read_parquet("events.parquet")`;
}

for (const button of document.querySelectorAll('[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = $(button.dataset.copy).textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Outside a secure context the clipboard API is missing: select the text for Ctrl+C.
      const range = document.createRange();
      range.selectNodeContents($(button.dataset.copy));
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
    }
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  });
}

// Vessels: a search box, and a panel with one vessel's identity, insights and events joined as a track.
const VESSEL_DATASET = 'public-global-vessel-identity:latest';
/** The most events a vessel's track joins, the first by start. */
const VESSEL_EVENTS_LIMIT = 2000;
/** Typing pauses this long before a search: one request per word typed, not per key. */
const SEARCH_DELAY_MS = 250;
const yearOf = (isoDate) => Number(isoDate.slice(0, 4));
const dayOf = (isoDate) => (isoDate ? isoDate.slice(0, 10) : '');
/** The last time a vessel was seen under an identity; an identity still seen has only its start. */
const lastSeen = (info) => info.transmissionDateTo ?? info.transmissionDateFrom;

let searchTimer = null;
/** Counts searches, so that a slow answer to an earlier query never replaces a later one's. */
let searchesAsked = 0;

$('vessel-query').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(searchVessels, SEARCH_DELAY_MS);
});

async function searchVessels() {
  const query = $('vessel-query').value.trim();
  const asked = ++searchesAsked;
  if (query.length < 3) return showVesselResults(query, [], query ? 'Type at least 3 characters.' : '');
  if (!$('token').value.trim()) return showVesselResults(query, [], 'Paste a token first (vessel-events token create).', true);
  $('vessel-search-note').textContent = 'Searching…';
  try {
    const page = await api(`../v3/vessels/search?${new URLSearchParams({ query, limit: '10' })}`);
    if (asked !== searchesAsked) return;
    const more = page.total > page.entries.length ? `; the first ${page.entries.length} listed` : '';
    showVesselResults(query, page.entries, page.total ? `${page.total.toLocaleString('en')} vessels match${more}.` : 'No vessel matches.');
  } catch (e) {
    if (asked !== searchesAsked) return;
    // A refused query (422) says in its first message what to change.
    showVesselResults(query, [], e.status === 422 && e.messages[0] ? e.messages[0].detail : e.message, true);
  }
}

function showVesselResults(query, vessels, note, isError = false) {
  $('vessel-search-note').textContent = note;
  $('vessel-search-note').classList.toggle('error', isError);
  $('vessel-results').replaceChildren(...vessels.map(vesselResult));
  // The query the list answers, for tests and the console.
  $('vessel-results').dataset.query = query;
}

function yearsSeen(info) {
  return `${yearOf(info.transmissionDateFrom)}-${yearOf(lastSeen(info))}`;
}

function vesselResult(vessel) {
  const latest = vessel.selfReportedInfo[0];
  const name = document.createElement('strong');
  name.textContent = latest.shipname ?? 'unnamed';
  const button = document.createElement('button');
  button.type = 'button';
  button.append(name, ` ${[latest.flag, latest.ssvid, yearsSeen(latest)].filter(Boolean).join(' · ')}`);
  button.addEventListener('click', () => showVessel(latest.id));
  const li = document.createElement('li');
  li.append(button);
  return li;
}

/** Counts vessels opened, so that a slow answer for one vessel never fills another's panel. */
let vesselsOpened = 0;

function vesselIdOfHash() {
  const match = /^#vessel=(.+)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

function openVesselOfHash() {
  const id = vesselIdOfHash();
  if (id && id !== state.vessel?.id) showVessel(id);
}
window.addEventListener('hashchange', () => {
  if (vesselIdOfHash()) openVesselOfHash();
  else if (state.vessel) closeVessel();
});
// A link to a vessel opened before the token was pasted: the vessel shows once it is.
$('token').addEventListener('change', () => {
  const id = vesselIdOfHash();
  if (id && !state.vessel?.identity) showVessel(id);
});

async function showVessel(id) {
  const opened = ++vesselsOpened;
  const isCurrent = () => opened === vesselsOpened;
  state.vessel = { id, identity: null, insights: null, entries: new Map(), total: null, loaded: false };
  // The panel's address, to link to or reload; replaced, so Back leaves the explorer as before.
  window.history.replaceState(null, '', `#vessel=${encodeURIComponent(id)}`);
  resetVesselPanel(id);
  if (!$('token').value.trim()) {
    vesselNote('vessel-summary', 'Paste a token first (vessel-events token create).', true);
  } else {
    await Promise.all([showVesselIdentity(id, isCurrent), showVesselEvents(id, isCurrent)]);
  }
  if (isCurrent()) state.vessel.loaded = true;
}

function resetVesselPanel(id) {
  $('vessel-name').textContent = id;
  vesselNote('vessel-summary', 'Asking…');
  vesselNote('vessel-insights-note', '');
  vesselNote('vessel-events-note', '');
  $('vessel-identity').tBodies[0].replaceChildren();
  $('vessel-insights').tBodies[0].replaceChildren();
  $('vessel').hidden = false;
}

function vesselNote(id, text, isError = false) {
  $(id).textContent = text;
  $(id).classList.toggle('error', isError);
}

function tableRow(cells) {
  const row = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    td.textContent = cell ?? '';
    row.append(td);
  }
  return row;
}

async function showVesselIdentity(id, isCurrent) {
  let vessel;
  try {
    vessel = await api(`../v3/vessels/${encodeURIComponent(id)}`);
  } catch (e) {
    if (isCurrent()) vesselNote('vessel-summary', e.message, true);
    return;
  }
  if (!isCurrent()) return;
  state.vessel.identity = vessel;
  writeVesselIdentity(id, vessel);
  await showVesselInsights(id, vessel, isCurrent);
}

function writeVesselIdentity(id, vessel) {
  $('vessel-name').textContent = vessel.selfReportedInfo[0]?.shipname ?? 'unnamed';
  const shiptypes = vessel.combinedSourcesInfo[0]?.shiptypes.map((t) => t.name) ?? [];
  vesselNote('vessel-summary', `${shiptypes.length ? shiptypes.join(', ') : 'Type unknown'} · vessel id ${id}`);
  const rows = vessel.selfReportedInfo.map((info) => tableRow([info.shipname, info.ssvid, info.flag, dayOf(info.transmissionDateFrom), dayOf(lastSeen(info))]));
  $('vessel-identity').tBodies[0].replaceChildren(...rows);
}

/** Whole years, from the first year the vessel was seen to the end of the last. */
function periodSeen(vessel) {
  const infos = vessel.selfReportedInfo;
  const first = Math.min(...infos.map((info) => yearOf(info.transmissionDateFrom)));
  const last = Math.max(...infos.map((info) => yearOf(lastSeen(info))));
  return { startDate: `${first}-01-01`, endDate: `${last + 1}-01-01` };
}

async function askVesselInsights(id, period) {
  const body = (includes) => ({ includes, ...period, vessels: [{ datasetId: VESSEL_DATASET, vesselId: id }] });
  try {
    return await api('../v3/insights/vessels', body(['FISHING', 'GAP']));
  } catch (e) {
    // With no gaps loaded the GAP include is a 404: fishing alone still answers.
    if (e.status !== 404) throw e;
    return api('../v3/insights/vessels', body(['FISHING']));
  }
}

async function showVesselInsights(id, vessel, isCurrent) {
  if (!vessel.selfReportedInfo.length) return vesselNote('vessel-insights-note', 'No period: the vessel has no identity.', true);
  const period = periodSeen(vessel);
  vesselNote('vessel-insights-note', 'Asking…');
  try {
    const insights = await askVesselInsights(id, period);
    if (!isCurrent()) return;
    state.vessel.insights = insights;
    writeVesselInsights(insights, period);
  } catch (e) {
    if (isCurrent()) vesselNote('vessel-insights-note', e.message, true);
  }
}

/** The period's counters the panel shows: [member of the answer, counter, label]. */
const INSIGHT_COUNTERS = [
  ['apparentFishing', 'events', 'Apparent fishing events'],
  ['apparentFishing', 'eventsInNoTakeMPAs', 'in no-take MPAs'],
  ['apparentFishing', 'eventsInRFMOWithoutKnownAuthorization', 'in RFMO areas without a known authorization'],
  ['gap', 'events', 'AIS gaps'],
  ['gap', 'eventsGapOff', 'with AIS turned off'],
];

function writeVesselInsights(insights, period) {
  const rows = INSIGHT_COUNTERS.filter(([member]) => insights[member]).map(([member, counter, label]) => {
    const row = tableRow([label, insights[member].periodSelectedCounters[counter].toLocaleString('en')]);
    row.cells[1].dataset.counter = `${member}.${counter}`;
    return row;
  });
  $('vessel-insights').tBodies[0].replaceChildren(...rows);
  vesselNote('vessel-insights-note', `${period.startDate} to ${period.endDate} (excluded)${insights.gap ? '' : '; no AIS gaps are loaded'}.`);
}

async function showVesselEvents(id, isCurrent) {
  vesselNote('vessel-events-note', 'Asking…');
  try {
    await Promise.all([datasetsLoaded, mapLoaded]);
    const datasets = [...state.kindsOfDataset.keys()];
    if (!datasets.length) return vesselNote('vessel-events-note', 'No event dataset is loaded.', true);
    const query = new URLSearchParams({ datasets: datasets.join(','), vessels: id, limit: String(VESSEL_EVENTS_LIMIT), offset: '0', sort: '+start' });
    const page = await api(`../v3/events?${query}`);
    if (!isCurrent()) return;
    state.vessel.entries = new Map(page.entries.map((entry) => [entry.id, entry]));
    state.vessel.total = page.total;
    const drawn = drawVesselTrack(page.entries);
    const more = page.total > page.entries.length ? `; the first ${page.entries.length.toLocaleString('en')} by start` : '';
    vesselNote('vessel-events-note', page.total
      ? `${page.total.toLocaleString('en')} events${more}, ${drawn.toLocaleString('en')} on the map joined in time order. Click a point for its entry.`
      : 'No events.');
  } catch (e) {
    if (isCurrent()) vesselNote('vessel-events-note', e.message, true);
  }
}

/** The entries' points and the line through them in start order, drawn and fitted; returns the number of points. */
function drawVesselTrack(entries) {
  const points = entries.filter((e) => e.position).map((e) => ({
    type: 'Feature', geometry: { type: 'Point', coordinates: [e.position.lon, e.position.lat] }, properties: { id: e.id, type: e.type },
  }));
  const line = continuousLongitudes(points.map((p) => p.geometry.coordinates));
  const track = line.length > 1 ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: line } } : empty();
  setVesselLayers(track, { type: 'FeatureCollection', features: points });
  if (line.length) {
    const panelWidth = $('vessel').offsetWidth;
    map.fitBounds(boundsOfPoints(line), { padding: { top: 40, bottom: 40, left: panelWidth + 40, right: 40 }, maxZoom: 7 });
  }
  return points.length;
}

/**
 * Longitudes shifted by whole turns so that no step spans more than 180°: a track over the
 * antimeridian then crosses it, instead of running back across the whole map.
 */
function continuousLongitudes(coordinates) {
  const line = [];
  for (const [lon, lat] of coordinates) {
    const previous = line.at(-1)?.[0] ?? lon;
    line.push([lon + 360 * Math.round((previous - lon) / 360), lat]);
  }
  return line;
}

function boundsOfPoints(coordinates) {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of coordinates) [w, s, e, n] = [Math.min(w, x), Math.min(s, y), Math.max(e, x), Math.max(n, y)];
  return [[w, s], [e, n]];
}

function setVesselLayers(track, points) {
  if (map.getSource('vessel-points')) {
    map.getSource('vessel-track').setData(track);
    map.getSource('vessel-points').setData(points);
    return;
  }
  map.addSource('vessel-track', { type: 'geojson', data: track });
  map.addSource('vessel-points', { type: 'geojson', data: points });
  map.addLayer({ id: 'vessel-track', type: 'line', source: 'vessel-track', paint: { 'line-color': '#14202b', 'line-width': 1.5, 'line-opacity': 0.7 } });
  map.addLayer({
    id: 'vessel-points', type: 'circle', source: 'vessel-points',
    paint: {
      'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 3.5, 6, 6],
      'circle-color': kindColor,
      'circle-stroke-color': '#14202b', 'circle-stroke-width': 1,
    },
  });
}

function removeVesselLayers() {
  for (const id of ['vessel-points', 'vessel-track']) {
    if (map.getLayer(id)) map.removeLayer(id);
    if (map.getSource(id)) map.removeSource(id);
  }
}

function closeVessel() {
  // Answers still on their way for the closed vessel are dropped.
  vesselsOpened++;
  state.vessel = null;
  $('vessel').hidden = true;
  removeVesselLayers();
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
}
$('vessel-close').addEventListener('click', closeVessel);

/** Resolved once the event datasets are known: a vessel's events are asked of all of them. */
const datasetsLoaded = loadDatasets();
openVesselOfHash();

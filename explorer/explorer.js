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
const state = { region: null, box: null, entries: new Map(), chart: null, total: null, shown: 0, timeseries: [], ready: false, kindsOfDataset: new Map() };
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
    try {
      const error = await res.json();
      detail = error.messages.map((m) => `${m.title}: ${m.detail}`).join('; ');
    } catch { /* not the API's JSON error */ }
    throw new Error(detail);
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
});
const empty = () => ({ type: 'FeatureCollection', features: [] });

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
      'circle-color': ['match', ['get', 'type'], ...Object.entries(COLORS).flat(), '#555'],
      'circle-stroke-color': '#fff', 'circle-stroke-width': 0.5,
    },
  });
  map.on('click', 'events', (e) => showEntry(e.features[0].properties.id));
  map.on('mouseenter', 'events', () => { map.getCanvas().style.cursor = 'pointer'; });
  map.on('mouseleave', 'events', () => { map.getCanvas().style.cursor = ''; });
  state.ready = true;
});
state.map = map;

for (const [kind, color] of Object.entries(COLORS)) {
  const li = document.createElement('li');
  li.innerHTML = `<span style="background:${color}"></span>`;
  li.append(KIND_LABELS[kind]);
  $('legend').append(li);
}

function showEntry(id) {
  const entry = state.entries.get(id);
  if (!entry) return;
  $('entry-json').textContent = JSON.stringify(entry, null, 2);
  $('entry').hidden = false;
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
    status(`${page.total.toLocaleString('en')} events match (${stats.numVessels.toLocaleString('en')} vessels); ${points.length.toLocaleString('en')} shown${page.total > points.length ? ', the first by start' : ''}. Click a point for its entry.`);
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

loadDatasets();

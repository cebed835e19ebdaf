// The demo fleet: vessels with stable identity (docs/data-format.md, "Demo data": ids
// `9hex-4hex-4hex-4hex-12hex`, 9-digit ssvid whose MID matches the flag), flags and types skewed as
// in the public data.
import type { Random } from './random.ts';

export interface Ground {
  name: string;
  /**
   * The line the ground follows (a shelf edge, a current front, a chain of banks), [lon, lat]
   * points: positions are drawn along it, up to `widthKm` either side.
   */
  axis: readonly (readonly [number, number])[];
  widthKm: number;
  /** Distance from shore a position on the ground keeps, km: a shelf is near, a high-seas front far. */
  shoreKm: readonly [number, number];
  /** The middle of the axis' box, and its half-size in degrees (for shapes drawn near a ground). */
  lat: number;
  lon: number;
  spread: number;
  /** Flags that fish here, with weights. */
  flags: readonly (readonly [string, number])[];
  /** FAO sub-area codes of the ground, by major area (only where the demo knows them). */
  faoSubAreas?: Record<string, string[]>;
}

function ground(g: Omit<Ground, 'lat' | 'lon' | 'spread'>): Ground {
  const lons = g.axis.map((p) => p[0]);
  const lats = g.axis.map((p) => p[1]);
  const [west, east, south, north] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  return { ...g, lon: (west + east) / 2, lat: (south + north) / 2, spread: Math.max(east - west, north - south) / 2 };
}

// Real fishing grounds: shelves and their edges, banks, and the high-seas fronts where the distant-
// water fleets work, each along its axis and within its band of distance from shore.
export const GROUNDS: readonly Ground[] = [
  ground({ name: 'Senegal shelf', axis: [[-17.0, 12.4], [-17.3, 13.4], [-17.6, 14.5], [-17.0, 15.5], [-16.7, 16.2]], widthKm: 60, shoreKm: [4, 70], flags: [['CHN', 5], ['SEN', 4], ['ESP', 2], ['KOR', 1]], faoSubAreas: { '34': ['34.3.1', '34.3'] } }),
  ground({ name: 'Mauritania shelf', axis: [[-16.6, 17.0], [-16.5, 18.5], [-16.8, 19.6], [-17.2, 20.6]], widthKm: 90, shoreKm: [6, 110], flags: [['CHN', 4], ['RUS', 2], ['ESP', 2], ['MRT', 2]], faoSubAreas: { '34': ['34.1.3', '34.1'] } }),
  ground({ name: 'East China Sea', axis: [[121.2, 26.4], [122.6, 28.0], [123.6, 29.8], [124.4, 31.8], [124.6, 33.0]], widthKm: 150, shoreKm: [15, 320], flags: [['CHN', 10], ['TWN', 2], ['KOR', 2]] }),
  ground({ name: 'NW Pacific squid grounds', axis: [[147.5, 39.8], [151.0, 41.0], [155.0, 41.8], [159.5, 42.6], [164.0, 43.0]], widthKm: 130, shoreKm: [180, 3000], flags: [['CHN', 6], ['TWN', 3], ['JPN', 2], ['RUS', 1]] }),
  ground({ name: 'Argentine shelf edge', axis: [[-57.8, -41.2], [-58.9, -43.0], [-60.0, -44.8], [-60.6, -46.2], [-61.3, -47.8]], widthKm: 45, shoreKm: [220, 700], flags: [['CHN', 5], ['ARG', 3], ['ESP', 2], ['KOR', 2], ['TWN', 2]], faoSubAreas: { '41': ['41.3.1', '41.3'] } }),
  ground({ name: 'SE Pacific off Peru', axis: [[-82.5, -8.5], [-83.6, -12.0], [-84.2, -15.5], [-83.8, -19.0], [-82.6, -22.0]], widthKm: 140, shoreKm: [380, 1500], flags: [['CHN', 8], ['PER', 2], ['KOR', 1]] }),
  ground({ name: 'Western Indian Ocean', axis: [[51.5, -1.0], [54.0, -2.8], [57.0, -4.8], [60.0, -7.0], [62.5, -9.5]], widthKm: 220, shoreKm: [25, 3000], flags: [['ESP', 4], ['FRA', 2], ['TWN', 3], ['SYC', 1]] }),
  ground({ name: 'Western Central Pacific', axis: [[158.0, 2.5], [163.0, 1.5], [168.0, 0.5], [173.0, -0.5], [178.5, -1.8]], widthKm: 260, shoreKm: [20, 3000], flags: [['TWN', 4], ['KOR', 3], ['USA', 2], ['JPN', 2], ['CHN', 3]] }),
  ground({ name: 'Bay of Biscay', axis: [[-1.9, 43.9], [-2.4, 44.8], [-3.2, 45.7], [-4.4, 46.6], [-5.6, 47.5]], widthKm: 90, shoreKm: [8, 170], flags: [['ESP', 6], ['FRA', 4]], faoSubAreas: { '27': ['27.8.b', '27.8'] } }),
  ground({ name: 'Barents Sea', axis: [[19.0, 71.2], [25.0, 72.2], [31.0, 72.8], [37.0, 72.6], [43.0, 71.6]], widthKm: 140, shoreKm: [25, 600], flags: [['RUS', 6], ['NOR', 5]], faoSubAreas: { '27': ['27.1'] } }),
  ground({ name: 'Bering Sea', axis: [[-165.5, 54.6], [-168.5, 55.8], [-171.5, 57.2], [-174.5, 58.8], [-177.5, 60.4]], widthKm: 70, shoreKm: [30, 450], flags: [['USA', 6], ['RUS', 2]] }),
  ground({ name: 'South China Sea', axis: [[109.8, 18.0], [111.5, 16.8], [112.8, 15.0], [113.8, 12.5], [114.6, 10.0]], widthKm: 120, shoreKm: [15, 700], flags: [['CHN', 8], ['VNM', 3]] }),
];

// Maritime Identification Digits per flag (first three digits of the ssvid).
const MIDS: Record<string, string[]> = {
  CHN: ['412', '413', '414'], TWN: ['416'], JPN: ['431', '432'], KOR: ['440', '441'], ESP: ['224', '225'],
  RUS: ['273'], USA: ['338', '366', '367'], SEN: ['663'], MRT: ['654'], ARG: ['701'], PER: ['760'],
  FRA: ['226', '227'], SYC: ['664'], NOR: ['257', '258'], VNM: ['574'], PAN: ['351', '352'], LBR: ['636'],
};

// Types as in the public data: fishing dominant, then carriers, support, cargo, bunker, others.
const TYPES: readonly (readonly [string, number])[] = [
  ['fishing', 80], ['carrier', 7], ['support', 4], ['cargo', 4], ['bunker', 2], ['other', 2], ['passenger', 0.5], ['research', 0.5],
];
const GEAR_TYPES = ['trawlers', 'drifting_longlines', 'squid_jigger', 'tuna_purse_seines', 'set_gillnets', 'pole_and_line', 'pots_and_traps'];
/**
 * Names as each flag's registry writes them: Chinese names of province, company and fishery
 * syllables with a hull number (LU RONG YUAN YU 606), Japanese ones ending in MARU NO., Korean
 * company names with a number, Spanish, Russian, Norwegian and American names mostly without one,
 * carriers named as reefers are.
 */
const NAMES: Record<string, (r: Random) => string> = {
  CHN: (r) => `${r.pick(['LU', 'ZHE', 'MIN', 'YUE', 'LIAO', 'SU', 'FU', 'QIONG', 'JIN', 'ZHOU'])} ${r.pick(['RONG', 'LING', 'YUAN', 'DA', 'XIN', 'HAI', 'SHENG', 'PU'])} ${r.pick(['YU', 'YUAN YU', 'YU LENG', 'YU YUN'])} ${r.int(1, 9999)}`,
  TWN: (r) => `${r.pick(['CHIN', 'HSIANG', 'SHUN', 'JIN', 'FUH', 'YU', 'SHENG'])} ${r.pick(['CHANG', 'FA', 'CHUN', 'HSING', 'YI', 'HONG'])} ${r.pick(['NO.', ''])}${r.int(1, 888)}`,
  JPN: (r) => `${r.pick(['SHINSEI', 'FUKUYOSHI', 'KOYO', 'TAIYO', 'SEIWA', 'KAISEI', 'HOKO', 'YAMATO'])} MARU NO.${r.int(1, 88)}`,
  KOR: (r) => `${r.pick(['OYANG', 'DONG WON', 'SAJO', 'AGNES', 'SEJONG', 'HANSUNG', 'IN SUNG', 'SUNG KYUNG'])} ${r.int(1, 999)}`,
  ESP: (r) => (r.chance(0.5)
    ? `${r.pick(['NUEVO', 'NUEVA', 'PLAYA DE', 'VILLA DE', 'VIRGEN DEL'])} ${r.pick(['BERMEO', 'ONDARROA', 'CARMEN', 'MAR', 'BURELA', 'ARRIETA', 'ESTEBAN', 'PASAJES'])}`
    : `${r.pick(['ALBACORA', 'TXORI', 'IZURDIA', 'ARGIBAY', 'MONTE', 'ALAKRANA', 'DEMIKU'])} ${r.pick(['UNO', 'DOS', 'TRES', 'BERRI', 'ALAI', 'SOLLEIRO'])}`),
  RUS: (r) => (r.chance(0.6)
    ? `${r.pick(['KAPITAN', 'ADMIRAL', 'PROFESSOR', 'AKADEMIK', 'GENERAL'])} ${r.pick(['MAKAROV', 'NEVELSKOY', 'SHUBIN', 'KHLEBNIKOV', 'SOKOLOV', 'BELOUSOV', 'ORLOV', 'GOTSKIY'])}`
    : `${r.pick(['OSTROV', 'MYS', 'BEREG', 'ZALIV'])} ${r.pick(['BERINGA', 'ZELENYI', 'KURILSKIY', 'YUZHNYI', 'SEVERNYI', 'DOLGIY'])}`),
  NOR: (r) => `${r.pick(['HAV', 'NORD', 'ROALD', 'SKAG', 'LANG', 'GERDA', 'STAR', 'AKER', 'SJO'])}${r.pick(['STRAND', 'FISK', 'JARL', 'OY', 'VAG', 'HAUG', 'TIND', 'BAS'])}`,
  USA: (r) => `${r.pick(['PACIFIC', 'NORTHERN', 'ALASKA', 'OCEAN', 'AMERICAN', 'SEA', 'ARCTIC'])} ${r.pick(['PRIDE', 'EXPLORER', 'DAWN', 'LEADER', 'VENTURE', 'ENTERPRISE', 'STORM', 'FURY'])}`,
};
const OTHER_NAME = (r: Random) => `${r.pick(['OCEAN', 'STAR', 'SEA', 'BLUE', 'GOLDEN', 'SAINT', 'NOUR', 'AL', 'NEW', 'GRACE'])} ${r.pick(['SPIRIT', 'WAVE', 'HOPE', 'FORTUNE', 'PEARL', 'MARINE', 'FAITH', 'BREEZE', 'HARMONY'])}${r.chance(0.4) ? ` ${r.int(1, 99)}` : ''}`;
const CARRIER_NAME = (r: Random) => `${r.pick(['ORIENTAL', 'LUPUS', 'RENOWN', 'SILVER', 'POLAR', 'ICE', 'FROST', 'ARCTIC', 'LIRA', 'TAVRIYA'])} ${r.pick(['REEFER', 'BAY', 'STAR', 'SPIRIT', 'QUEEN', 'PEARL', 'FROST'])}`;

function vesselName(random: Random, flag: string | null, type: string): string {
  if (type === 'carrier' && random.chance(0.6)) return CARRIER_NAME(random);
  return (NAMES[flag ?? ''] ?? OTHER_NAME)(random);
}

/** A vessel of the demo fleet, with its `event_vessels` fields (source layout). */
export interface DemoVessel {
  /** Its place in the fleet: the seed of its own random stream (voyages.ts). */
  index: number;
  id: string;
  ssvid: string;
  name: string;
  flag: string | null;
  type: string;
  gear_type: string | null;
  public_authorizations: { has_publicly_listed_authorization: boolean | string; rfmo: string }[];
  ground: Ground;
  /** Relative activity: a few vessels are very active. */
  activity: number;
}

export function makeVesselId(random: Random): string {
  return `${random.hex(9)}-${random.hex(4)}-${random.hex(4)}-${random.hex(4)}-${random.hex(12)}`;
}

/**
 * `authorizingBodiesOf(ground)`: the bodies publishing authorization lists whose area holds the
 * ground. A vessel is listed by most of those of its ground (authorized, refused or pending), and
 * now and then by one elsewhere; a tenth are listed nowhere.
 */
export function makeFleet(random: Random, size: number, authorizingBodiesOf: (g: Ground) => string[]): DemoVessel[] {
  const fleet: DemoVessel[] = [];
  for (let i = 0; i < size; i++) {
    const ground = random.pick(GROUNDS);
    // 2 % carry no flag and a malformed ssvid, as in the public data: every fiftieth vessel, so
    // that a small fleet has its share too.
    const malformed = i % 50 === 25;
    const flag = malformed ? null : random.weighted(ground.flags);
    const type = random.weighted(TYPES);
    const ssvid = malformed ? String(random.int(1000, 99999999)) : `${random.pick(MIDS[flag!] ?? ['999'])}${String(random.int(0, 999999)).padStart(6, '0')}`;
    fleet.push({
      index: i,
      id: makeVesselId(random),
      ssvid,
      name: vesselName(random, flag, type),
      flag,
      type,
      gear_type: type === 'fishing' ? random.pick(GEAR_TYPES) : null,
      public_authorizations: authorizationsOf(random, authorizingBodiesOf(ground)),
      ground,
      activity: random.logNormal(1, 1.1),
    });
  }
  return fleet;
}

const ELSEWHERE = ['ICCAT', 'IOTC', 'WCPFC', 'IATTC', 'SPRFMO', 'NPFC', 'CCSBT'];

function authorizationsOf(random: Random, bodies: string[]): DemoVessel['public_authorizations'] {
  if (random.chance(0.1)) return [];
  const listed = bodies.filter(() => random.chance(0.85));
  if (random.chance(0.1)) listed.push(random.pick(ELSEWHERE.filter((b) => !listed.includes(b))));
  return listed.map((rfmo) => ({ has_publicly_listed_authorization: random.weighted<boolean | string>([[true, 75], [false, 20], ['pending', 5]]), rfmo }));
}

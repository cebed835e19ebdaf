// The demo fleet: vessels with stable identity (decisions: ids `9hex-4hex-4hex-4hex-12hex`,
// 9-digit ssvid whose MID matches the flag), flags and types skewed as in the public data.
import type { Random } from './random.ts';

export interface Ground {
  name: string;
  lat: number;
  lon: number;
  /** Half-width of the area, degrees. */
  spread: number;
  /** Flags that fish here, with weights. */
  flags: readonly (readonly [string, number])[];
  /** FAO sub-area codes of the ground, by major area (only where the demo knows them). */
  faoSubAreas?: Record<string, string[]>;
}

// Real fishing grounds, centred at sea. Positions are drawn within `spread` degrees of the centre.
export const GROUNDS: readonly Ground[] = [
  { name: 'Senegal shelf', lat: 13.9, lon: -18.1, spread: 0.5, flags: [['CHN', 5], ['SEN', 4], ['ESP', 2], ['KOR', 1]], faoSubAreas: { '34': ['34.3.1', '34.3'] } },
  { name: 'Mauritania shelf', lat: 19.6, lon: -17.6, spread: 0.5, flags: [['CHN', 4], ['RUS', 2], ['ESP', 2], ['MRT', 2]], faoSubAreas: { '34': ['34.1.3', '34.1'] } },
  { name: 'East China Sea', lat: 29.0, lon: 124.2, spread: 0.9, flags: [['CHN', 10], ['TWN', 2], ['KOR', 2]] },
  { name: 'NW Pacific squid grounds', lat: 40.5, lon: 155.0, spread: 3, flags: [['CHN', 6], ['TWN', 3], ['JPN', 2], ['RUS', 1]] },
  { name: 'Argentine shelf edge', lat: -45.8, lon: -59.8, spread: 1, flags: [['CHN', 5], ['ARG', 3], ['ESP', 2], ['KOR', 2], ['TWN', 2]], faoSubAreas: { '41': ['41.3.1', '41.3'] } },
  { name: 'SE Pacific off Peru', lat: -16.0, lon: -83.0, spread: 2, flags: [['CHN', 8], ['PER', 2], ['KOR', 1]] },
  { name: 'Western Indian Ocean', lat: -4.5, lon: 57.5, spread: 1.5, flags: [['ESP', 4], ['FRA', 2], ['TWN', 3], ['SYC', 1]] },
  { name: 'Western Central Pacific', lat: 0.5, lon: 173.5, spread: 3, flags: [['TWN', 4], ['KOR', 3], ['USA', 2], ['JPN', 2], ['CHN', 3]] },
  { name: 'Bay of Biscay', lat: 45.0, lon: -4.5, spread: 0.6, flags: [['ESP', 6], ['FRA', 4]], faoSubAreas: { '27': ['27.8.b', '27.8'] } },
  { name: 'Barents Sea', lat: 72.5, lon: 35.0, spread: 2, flags: [['RUS', 6], ['NOR', 5]], faoSubAreas: { '27': ['27.1'] } },
  { name: 'Bering Sea', lat: 57.0, lon: -171.0, spread: 1.5, flags: [['USA', 6], ['RUS', 2]] },
  { name: 'South China Sea', lat: 12.5, lon: 113.5, spread: 1.2, flags: [['CHN', 8], ['VNM', 3]] },
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

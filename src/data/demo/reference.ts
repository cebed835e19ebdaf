// The demo's reference data, beside its rows: vessel groups, ports, region geometries, the vessel
// registry of its large vessels and an IUU vessel list. Read after the rows, since the client
// examples join the fleet as rows are made.
import { hash } from 'node:crypto';
import type { DemoVessel } from './fleet.ts';
import { bboxOf, type Geography } from './geography.ts';

/** What the reference data reads of the demo's world (generate.ts, DemoWorld). */
interface ReferenceWorld {
  readonly fleet: readonly DemoVessel[];
  readonly geo: Geography;
}
import { mergeRegionParts, type GroupMember, type PortRecord, type RegionGeometry } from '../reference-files.ts';
import type { IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';

export interface DemoReferenceData {
  groups: GroupMember[];
  ports: PortRecord[];
  regions: Record<string, RegionGeometry[]>;
  iuu: IuuListing[];
  registry: RegistryRecord[];
}

/** A number drawn from the vessel's id, so that the registry leaves the events' random draws alone. */
function drawn(id: string, salt: string, modulo: number): number {
  return hash('sha256', `${salt}:${id}`, 'buffer').readUInt32BE(0) % modulo;
}

/** An IMO number: six digits and the check digit IMO defines (each digit times 7..2, summed, mod 10). */
function imoNumber(id: string): string {
  const digits = String(1_000_000 + drawn(id, 'imo', 9_000_000)).slice(0, 6).split('').map(Number);
  const check = digits.reduce((sum, d, i) => sum + d * (7 - i), 0) % 10;
  return `${digits.join('')}${check}`;
}

const OWNER_WORDS = ['OCEAN', 'PACIFIC', 'ATLANTIC', 'BLUE', 'NORTH', 'SOUTHERN', 'GOLDEN', 'STAR'];
const OWNER_KINDS = ['FISHERIES CO LTD', 'MARINE SA', 'SEAFOOD GROUP', 'SHIPPING INC', 'PESCA SL'];

/**
 * The registry of the demo's large vessels (carriers, and the busiest tenth of the fishing fleet):
 * IMO numbers, call signs, lengths and tonnage, an owner, and the authorizations their events list
 * as publicly listed. Drawn from each vessel's id, so the events do not change with it.
 */
function demoRegistry(w: ReferenceWorld): RegistryRecord[] {
  const fishing = w.fleet.filter((v) => v.type === 'fishing').sort((a, b) => b.activity - a.activity || (a.id < b.id ? -1 : 1));
  const large = [...w.fleet.filter((v) => v.type === 'carrier'), ...fishing.slice(0, Math.ceil(fishing.length / 10))];
  return large.map((v) => {
    const carrier = v.type === 'carrier';
    const lengthM = carrier ? 90 + drawn(v.id, 'length', 60) : 40 + drawn(v.id, 'length', 50);
    return {
      vesselId: v.id, ssvid: v.ssvid, imo: imoNumber(v.id),
      callsign: `${(v.flag ?? 'XX').slice(0, 1)}${String.fromCharCode(65 + drawn(v.id, 'cs', 26))}${String(1000 + drawn(v.id, 'csn', 9000))}`,
      shipname: v.name, flag: v.flag, geartypes: v.gear_type ? [v.gear_type.toUpperCase()] : [],
      lengthM, tonnageGt: Math.round(lengthM ** 2.6 / 40), sourceCode: ['DEMO-REGISTRY'],
      dateFrom: '2015-01-01', dateTo: null,
      owner: { name: `${OWNER_WORDS[drawn(v.id, 'ow', OWNER_WORDS.length)]} ${OWNER_KINDS[drawn(v.id, 'ok', OWNER_KINDS.length)]}`, flag: v.flag, dateFrom: '2015-01-01', dateTo: null },
      authorizations: v.public_authorizations.filter((a) => String(a.has_publicly_listed_authorization) === 'true').map((a) => ({ sourceCode: a.rfmo, dateFrom: '2017-01-01', dateTo: '2024-12-31' })),
    };
  });
}

/**
 * A few of the busiest fishing vessels on an IUU vessel list: listed by id or by MMSI, one twice,
 * some delisted since, so that the IUU insight has every case to show.
 */
function demoIuuList(w: ReferenceWorld): IuuListing[] {
  const busiest = w.fleet.filter((v) => v.type === 'fishing').sort((a, b) => b.activity - a.activity || (a.id < b.id ? -1 : 1));
  const listing = (v: DemoVessel | undefined, by: 'id' | 'ssvid', listedFrom: string, listedTo: string | null): IuuListing[] =>
    v ? [{ vesselId: by === 'id' ? v.id : null, ssvid: by === 'ssvid' ? v.ssvid : null, shipname: v.name, flag: v.flag, listedFrom, listedTo, source: 'demo IUU vessel list' }] : [];
  return [
    ...listing(busiest[1], 'id', '2016-01-01', '2017-06-30'),
    ...listing(busiest[1], 'id', '2019-03-01', null),
    ...listing(busiest[3], 'ssvid', '2018-06-15', '2021-12-31'),
    ...listing(busiest[5], 'id', '2020-01-10', '2022-05-01'),
    ...listing(busiest[7], 'id', '2023-02-01', null),
  ];
}
export function demoReferenceData(w: ReferenceWorld): DemoReferenceData {
  const members = (groupId: string, vessels: DemoVessel[]) => vessels.map((v) => ({ groupId, vesselId: v.id }));
  const chineseTrawlers = w.fleet.filter((v) => v.flag === 'CHN' && v.type === 'fishing');
  const groups = [
    // The group the Python client's documented example asks for.
    ...members('my-vessel-group', [...chineseTrawlers.filter((v) => v.id.startsWith('8c7304226')), ...chineseTrawlers.slice(0, 20)]),
    ...members('carriers', w.fleet.filter((v) => v.type === 'carrier')),
    ...members('rus-carriers', w.fleet.filter((v) => v.type === 'carrier' && v.flag === 'RUS')),
    ...members('chn-fishing', chineseTrawlers),
  ];
  const dedupe = [...new Map(groups.map((g) => [`${g.groupId}|${g.vesselId}`, g])).values()];
  const regions = (layer: 'eez' | 'fao' | 'rfmo' | 'mpa', keep: (id: string) => boolean = () => true): RegionGeometry[] =>
    mergeRegionParts(
      w.geo.layerFeatures(layer).filter((f) => keep(f.id)).map((f) => ({
        id: f.id, name: f.properties.name, iso3: layer === 'eez' ? w.geo.eezIso3(f.id) : null, geometry: JSON.stringify(f.geometry), bbox: bboxOf(f.geometry.coordinates),
      })),
    );
  return {
    iuu: demoIuuList(w),
    registry: demoRegistry(w),
    groups: dedupe,
    ports: w.geo.ports.map((p) => ({ id: p.id, name: p.name, flag: p.flag, lat: p.lat, lon: p.lon })),
    regions: {
      'public-eez-areas': regions('eez'),
      'public-fao-major': regions('fao'),
      'public-rfmo': regions('rfmo'),
      'public-mpa-all': regions('mpa'),
      // The same subsets the demo tags as no-take (geography.ts).
      'public-mpa-no-take': regions('mpa', (id) => Number(id) % 2 === 0),
      'public-mpa-no-take-partial': regions('mpa', (id) => Number(id) % 10 === 1),
    },
  };
}


// Region layers: named regions events carry and clients filter and group by.

/**
 * The nine region layers, listed once: the region dataset a client names
 * (docs/api.md, "Regions, geometry and buffers"), the `regions` member of an entry it matches
 * (docs/api.md, "Entry"), its published-row key and column.
 */
export const REGION_MEMBERS = [
  { dataset: 'public-eez-areas', member: 'eez', source: 'eez', column: 'eez' },
  { dataset: 'public-eez-areas-12nm', member: 'eez12Nm', source: 'eez12nm', column: 'eez12nm' },
  { dataset: 'public-fao-areas', member: 'fao', source: 'fao', column: 'fao' },
  { dataset: 'public-fao-major', member: 'majorFao', source: 'major_fao', column: 'major_fao' },
  { dataset: 'public-high-seas', member: 'highSeas', source: 'high_seas', column: 'high_seas' },
  { dataset: 'public-mpa-all', member: 'mpa', source: 'mpa', column: 'mpa' },
  { dataset: 'public-mpa-no-take', member: 'mpaNoTake', source: 'mpa_no_take', column: 'mpa_no_take' },
  { dataset: 'public-mpa-no-take-partial', member: 'mpaNoTakePartial', source: 'mpa_no_take_partial', column: 'mpa_no_take_partial' },
  { dataset: 'public-rfmo', member: 'rfmo', source: 'rfmo', column: 'rfmo' },
] as const;
export type RegionMember = (typeof REGION_MEMBERS)[number]['member'];
export type Regions = Record<RegionMember, string[]>;

/** Region dataset id -> the `regions` member it matches. */
export const REGION_DATASETS: Readonly<Record<string, RegionMember>> = Object.fromEntries(REGION_MEMBERS.map((m) => [m.dataset, m.member]));

export function isRegionDataset(id: string): boolean {
  return Object.hasOwn(REGION_DATASETS, id);
}

/** A name as it is compared: without accents, in lower case ("Sénégal" -> "senegal"). */
function foldedName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
}

/** Whether a region's name holds the text, accents and case aside (`sénégal`, `SENEGAL` find "Senegal"). */
export function regionNameMatches(name: string, text: string): boolean {
  return foldedName(name).includes(foldedName(text));
}

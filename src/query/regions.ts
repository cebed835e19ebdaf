// Region datasets (decisions section 4) and the `regions` member of an entry each one matches.
import type { RegionMember } from '../data/record.ts';

export const REGION_DATASETS: Readonly<Record<string, RegionMember>> = {
  'public-eez-areas': 'eez',
  'public-eez-areas-12nm': 'eez12Nm',
  'public-fao-major': 'majorFao',
  'public-fao-areas': 'fao',
  'public-high-seas': 'highSeas',
  'public-mpa-all': 'mpa',
  'public-mpa-no-take': 'mpaNoTake',
  'public-mpa-no-take-partial': 'mpaNoTakePartial',
  'public-rfmo': 'rfmo',
};

export function isRegionDataset(id: string): boolean {
  return Object.hasOwn(REGION_DATASETS, id);
}

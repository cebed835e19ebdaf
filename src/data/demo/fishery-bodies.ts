// The areas of the RFMOs and other fisheries bodies in the demo, as sets of FAO major fishing
// areas. The package's RFMO shapes are boxes that span the globe (every event between 30°W and 0°
// and 0-30°N carried WCPFC, a Pacific body); these follow each convention area closely enough that
// an Atlantic event never carries a Pacific or Indian Ocean body, nor the reverse. The basis of
// each is its convention area as the body describes it (docs/data-format.md lists them); a body
// whose area is inland waters (Lake Victoria, the Mekong, ...) has no marine area here and tags
// no event.

export interface FisheryBody {
  id: string;
  /** FAO major fishing areas its convention area lies in (whole areas: an approximation). */
  fao: readonly string[];
  /** It publishes lists of authorized vessels (the tuna RFMOs, SPRFMO, NPFC). */
  publishesAuthorizations?: boolean;
  basis: string;
}

const ATLANTIC = ['21', '27', '31', '34', '37', '41', '47'];

export const FISHERY_BODIES: readonly FisheryBody[] = [
  { id: 'ICCAT', fao: ATLANTIC, publishesAuthorizations: true, basis: 'ICCAT Convention art. I: the Atlantic Ocean and its adjacent seas' },
  { id: 'IOTC', fao: ['51', '57'], publishesAuthorizations: true, basis: 'IOTC Agreement art. II: the Indian Ocean (FAO areas 51 and 57) and adjacent seas' },
  { id: 'WCPFC', fao: ['61', '71', '81'], publishesAuthorizations: true, basis: 'WCPF Convention art. 3: the western and central Pacific Ocean' },
  { id: 'IATTC', fao: ['77', '87'], publishesAuthorizations: true, basis: 'Antigua Convention art. III: the eastern Pacific Ocean' },
  { id: 'CCSBT', fao: ['47', '51', '57', '81'], publishesAuthorizations: true, basis: 'CCSBT: the range of southern bluefin tuna (southern Atlantic, Indian and western Pacific oceans)' },
  { id: 'SPRFMO', fao: ['81', '87'], publishesAuthorizations: true, basis: 'SPRFMO Convention art. 5: the high seas of the South Pacific' },
  { id: 'NPFC', fao: ['61', '67'], publishesAuthorizations: true, basis: 'NPFC Convention art. 4: the high seas of the North Pacific' },
  { id: 'NAFO', fao: ['21'], basis: 'NAFO Convention: the Northwest Atlantic (FAO area 21)' },
  { id: 'NEAFC', fao: ['27'], basis: 'NEAFC Convention art. 1: the Northeast Atlantic (FAO area 27)' },
  { id: 'ICES', fao: ['27'], basis: 'ICES: the North Atlantic and adjacent seas, statistical areas of FAO area 27' },
  { id: 'NASCO', fao: ['21', '27'], basis: 'NASCO Convention: the North Atlantic north of 36°N' },
  { id: 'NAMMCO', fao: ['18', '21', '27'], basis: 'NAMMCO Agreement: the North Atlantic' },
  { id: 'GFCM', fao: ['37'], basis: 'GFCM Agreement: the Mediterranean and the Black Sea (FAO area 37)' },
  { id: 'SRFC', fao: ['34'], basis: 'SRFC Convention: the waters of its West African members (FAO area 34)' },
  { id: 'FCWC', fao: ['34'], basis: 'FCWC: the waters of its West-Central Gulf of Guinea members' },
  { id: 'COREP', fao: ['34', '47'], basis: 'COREP: the Central Gulf of Guinea (FAO areas 34 and 47)' },
  { id: 'CRFM', fao: ['31'], basis: 'CRFM: the Caribbean (FAO area 31)' },
  { id: 'OSPESCA', fao: ['31', '77'], basis: 'OSPESCA: the Caribbean and Pacific waters of Central America' },
  { id: 'CTMFM', fao: ['41'], basis: 'CTMFM: the Río de la Plata maritime front (FAO area 41)' },
  { id: 'CCAMLR', fao: ['48', '58', '88'], basis: 'CAMLR Convention art. I: south of the Antarctic Convergence (FAO areas 48, 58, 88)' },
  { id: 'SIOFA', fao: ['51', '57'], basis: 'SIOFA Agreement art. 3: the high seas of the southern Indian Ocean' },
  { id: 'SWIOFC', fao: ['51'], basis: 'SWIOFC: the Southwest Indian Ocean (FAO area 51)' },
  { id: 'RECOFI', fao: ['51'], basis: 'RECOFI: the Gulf and the Sea of Oman (FAO area 51)' },
  { id: 'PERSGA', fao: ['51'], basis: 'PERSGA: the Red Sea and the Gulf of Aden (FAO area 51)' },
  { id: 'SPC', fao: ['71', '77', '81'], basis: 'The Pacific Community: its Pacific Island members\' waters' },
  { id: 'FFA', fao: ['71', '81'], basis: 'FFA: its Pacific Island members\' waters' },
  { id: 'SEAFDEC', fao: ['57', '71'], basis: 'SEAFDEC: Southeast Asian waters' },
  { id: 'APFIC', fao: ['57', '61', '71'], basis: 'APFIC: the Asia-Pacific region' },
  { id: 'NACA', fao: ['57', '61', '71'], basis: 'NACA: Asia-Pacific aquaculture (its coastal members)' },
  { id: 'CPPS', fao: ['87'], basis: 'CPPS: the Southeast Pacific (FAO area 87)' },
  { id: 'PICES', fao: ['61', '67'], basis: 'PICES Convention: the North Pacific north of 30°N' },
  { id: 'NPAFC', fao: ['61', '67'], basis: 'NPAFC Convention: the North Pacific north of 33°N' },
  { id: 'IPHC', fao: ['67'], basis: 'IPHC: Pacific halibut waters of the Northeast Pacific (FAO area 67)' },
  { id: 'CCBSP', fao: ['61', '67'], basis: 'CCBSP: the central Bering Sea' },
  { id: 'ACAP', fao: ['41', '47', '48', '51', '57', '58', '81', '87', '88'], basis: 'ACAP: the albatrosses\' and petrels\' southern oceans' },
  { id: 'IWC', fao: ['18', '21', '27', '31', '34', '37', '41', '47', '48', '51', '57', '58', '61', '67', '71', '77', '81', '87', '88'], basis: 'ICRW: all waters where whaling is prosecuted' },
  // Inland bodies: no marine area.
  { id: 'LVFO', fao: [], basis: 'Lake Victoria' },
  { id: 'MRC', fao: [], basis: 'the Mekong' },
  { id: 'LTA', fao: [], basis: 'Lake Tanganyika' },
  { id: 'CACFISH', fao: [], basis: 'Central Asia and the Caucasus, inland waters' },
  { id: 'EIFAAC', fao: [], basis: 'European inland waters' },
];

/** The bodies whose area holds a position of this FAO major area. */
export function bodiesOfFaoArea(major: string | undefined): string[] {
  return major ? FISHERY_BODIES.filter((b) => b.fao.includes(major)).map((b) => b.id) : [];
}

const PUBLISHING = new Set(FISHERY_BODIES.filter((b) => b.publishesAuthorizations).map((b) => b.id));

/**
 * An event's `vessel_public_authorization_status`, from the bodies of its position that publish
 * authorization lists and the vessel's listed authorizations: all of them listed as authorized,
 * matching; some, partially; none (or none that publish lists there), not matching.
 */
export function authorizationStatus(eventBodies: readonly string[], authorizations: readonly { has_publicly_listed_authorization: boolean | string; rfmo: string }[]): string {
  const relevant = eventBodies.filter((b) => PUBLISHING.has(b));
  const listed = relevant.filter((b) => authorizations.some((a) => a.rfmo === b && a.has_publicly_listed_authorization === true));
  if (relevant.length > 0 && listed.length === relevant.length) return 'matching_relevant_public_authorization';
  if (listed.length > 0) return 'partially_matching_relevant_public_authorization';
  return 'not_matching_relevant_public_authorization';
}

/** The bodies publishing authorization lists whose area holds a position of this FAO major area. */
export function authorizingBodiesOfFaoArea(major: string | undefined): string[] {
  return bodiesOfFaoArea(major).filter((b) => PUBLISHING.has(b));
}

// Names as searches compare them: accents, case, spaces and punctuation aside ("Don Tito",
// "DON-TITO" and "DÓN TITO" are one name). `normalizedShipname` is GFW's `nShipname`.

function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();
}

/** Letters and digits only, upper case, without accents: FRIO FORWIN -> FRIOFORWIN. */
export function normalizedShipname(name: string): string {
  return folded(name).replace(/[^\p{L}\p{N}]/gu, '');
}

/** The name's words, folded as above: "Frío Forwin-2" -> FRIO, FORWIN, 2. */
export function nameWords(name: string): string[] {
  return folded(name).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

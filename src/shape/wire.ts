// Wire formats (docs/api.md, "Wire formats"): `spec` writes types as the interface declares them; `gfw`
// writes the live service's types so the official clients' strict models accept the entries.
export const WIRE_FORMATS = ['spec', 'gfw'] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

/** The request header that chooses the wire format per request. */
export const WIRE_FORMAT_HEADER = 'x-wire-format';

export function isWireFormat(value: string): value is WireFormat {
  return (WIRE_FORMATS as readonly string[]).includes(value);
}

// Dates as clients send them (docs/api.md, "List filters (`GET` query, `POST` body)"): `YYYY-MM-DD` or a full ISO 8601 date-time.

/** Epoch milliseconds, or undefined when the text is not a real calendar date/time. */
export function parseDateParam(text: string): number | undefined {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (dateOnly) {
    const [y, m, d] = dateOnly.slice(1).map(Number) as [number, number, number];
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    // Date.UTC rolls 2021-02-30 over to March; a rolled date is not what the client meant.
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
    return ms;
  }
  // A date-time without a zone is taken as UTC, like every timestamp this service emits.
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(text);
  const ms = Date.parse(hasZone ? text : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(ms)) return undefined;
  const datePart = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (datePart && parseDateParam(`${datePart[1]}-${datePart[2]}-${datePart[3]}`) === undefined) return undefined;
  return ms;
}

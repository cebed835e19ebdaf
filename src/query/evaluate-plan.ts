// The filter plan (plan.ts) evaluated in TypeScript, with SQL's three-valued logic: a comparison
// with a field that has no value is unknown (null), and so is its negation. The DuckDB engine
// answers vessel histories from its point files with it (src/store/duckdb/vessel-history.ts), and
// test/unit/plan.test.ts checks it, over every stored record, against the reference of the filters.
import type { Condition, Field } from './plan.ts';

export type Truth = boolean | null;
export type FieldValue = string | number | boolean | null;

/**
 * A condition's truth for one event. `valueOf` gives a field's value (instants in milliseconds,
 * which may have a fraction when the event was stored with microseconds); `other` answers the
 * conditions that need more than fields (vessel groups, regions, polygons).
 */
export function evaluatePlan(c: Condition, valueOf: (field: Field) => FieldValue, other: (c: Condition) => Truth = needsMore): Truth {
  switch (c.is) {
    case 'true': return true;
    case 'false': return false;
    case 'and': {
      let unknown = false;
      for (const part of c.all) {
        const t = evaluatePlan(part, valueOf, other);
        if (t === false) return false;
        if (t === null) unknown = true;
      }
      return unknown ? null : true;
    }
    case 'or': {
      let unknown = false;
      for (const part of c.any) {
        const t = evaluatePlan(part, valueOf, other);
        if (t === true) return true;
        if (t === null) unknown = true;
      }
      return unknown ? null : false;
    }
    case 'not': {
      const inner = evaluatePlan(c.condition, valueOf, other);
      return inner === null ? null : !inner;
    }
    case 'oneOf': {
      const v = valueOf(c.field);
      return v === null ? null : c.values.includes(v);
    }
    case 'missing': return valueOf(c.field) === null;
    case 'atOrAfter':
    case 'before': {
      const v = valueOf(c.field) as number | null;
      return v === null ? null : c.is === 'atOrAfter' ? v >= c.ms : v < c.ms;
    }
    case 'lastsAtLeast':
    case 'lastsLessThan': {
      const version = valueOf('version');
      const end = (valueOf('end') as number | null) ?? c.openUntil.find((o) => o.version === version)?.ms ?? null;
      if (end === null) return null;
      // Whole milliseconds of each instant, as the engines' date_diff counts them.
      const length = Math.trunc(end) - Math.trunc(valueOf('start') as number);
      return c.is === 'lastsAtLeast' ? length >= c.ms : length < c.ms;
    }
    case 'inVesselGroups':
    case 'inRegion':
    case 'inPolygons':
      return other(c);
  }
}

function needsMore(c: Condition): Truth {
  throw new Error(`evaluatePlan: a ${c.is} condition needs more than the event's fields`);
}

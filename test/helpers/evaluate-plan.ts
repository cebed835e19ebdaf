// The filter plan (src/query/plan.ts) evaluated in plain TypeScript on stored records, with SQL's
// three-valued logic (a field without a value makes a comparison unknown). It lets the tests check
// what the plan says, independently of any engine's rendering of it.
import type { EventRecord } from '../../src/domain/record.ts';
import type { Condition, Field } from '../../src/query/plan.ts';

type Truth = boolean | null;

function fieldOf(r: EventRecord, field: Field, versionOf: (r: EventRecord) => number): string | number | boolean | null {
  const info = r.info as Record<string, unknown>;
  switch (field) {
    case 'version': return versionOf(r);
    case 'id': return r.id;
    case 'vessel': return r.vessel.id;
    case 'kind': return r.kind;
    case 'vesselFlag': return r.vessel.flag;
    case 'vesselType': return r.vessel.type;
    case 'nextPort': return r.vessel.next_port?.id ?? null;
    case 'portVisitConfidence': return r.kind === 'port_visit' && info['confidence'] !== null ? Number(info['confidence']) : null;
    case 'portVisitAnchorage': return r.kind === 'port_visit' ? ((info['intermediate_anchorage'] as { id: string | null } | null)?.id ?? null) : null;
    case 'encounterType': return r.kind === 'encounter' ? ((info['type'] as string | null) ?? null) : null;
    case 'gapIntentionalDisabling': return r.kind === 'gap' ? ((info['intentional_disabling'] as boolean | null) ?? null) : null;
    case 'start': return r.startMs;
    case 'end': return r.endMs;
  }
}

export function evaluate(c: Condition, r: EventRecord, versionOf: (r: EventRecord) => number, groups: Map<string, Set<string>>): Truth {
  const value = (field: Field) => fieldOf(r, field, versionOf);
  switch (c.is) {
    case 'true': return true;
    case 'false': return false;
    case 'and': {
      const parts = c.all.map((x) => evaluate(x, r, versionOf, groups));
      return parts.includes(false) ? false : parts.includes(null) ? null : true;
    }
    case 'or': {
      const parts = c.any.map((x) => evaluate(x, r, versionOf, groups));
      return parts.includes(true) ? true : parts.includes(null) ? null : false;
    }
    case 'not': {
      const inner = evaluate(c.condition, r, versionOf, groups);
      return inner === null ? null : !inner;
    }
    case 'oneOf': {
      const v = value(c.field);
      return v === null ? null : c.values.includes(v);
    }
    case 'missing': return value(c.field) === null;
    case 'atOrAfter': case 'before': {
      const v = value(c.field) as number | null;
      return v === null ? null : c.is === 'atOrAfter' ? v >= c.ms : v < c.ms;
    }
    case 'inVesselGroups': return c.groups.some((g) => groups.get(g)?.has(r.vessel.id) ?? false);
    case 'inRegion': return r.regions[c.member].includes(c.id);
    case 'lastsAtLeast': case 'lastsLessThan': {
      const end = r.endMs ?? c.openUntil.find((o) => o.version === versionOf(r))?.ms ?? null;
      if (end === null) return null;
      return c.is === 'lastsAtLeast' ? end - r.startMs >= c.ms : end - r.startMs < c.ms;
    }
    case 'inPolygons': throw new Error('polygons are checked over HTTP against turf (test/api/area-differential.test.ts)');
  }
}

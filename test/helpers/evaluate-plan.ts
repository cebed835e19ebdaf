// The filter plan (src/query/plan.ts) evaluated on stored records by the product's evaluator
// (src/query/evaluate-plan.ts): this reads each field of a record, and the regions and groups it
// is in. test/unit/plan.test.ts compares the result with the reference of the filters.
import type { EventRecord } from '../../src/domain/record.ts';
import type { Condition, Field } from '../../src/query/plan.ts';
import { evaluatePlan, type Truth } from '../../src/query/evaluate-plan.ts';

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
  return evaluatePlan(c, (field) => fieldOf(r, field, versionOf), (other) => {
    switch (other.is) {
      case 'inVesselGroups': return other.groups.some((g) => groups.get(g)?.has(r.vessel.id) ?? false);
      case 'inRegion': return r.regions[other.member].includes(other.id);
      default: throw new Error('polygons are checked over HTTP against turf (test/api/area-differential.test.ts)');
    }
  });
}

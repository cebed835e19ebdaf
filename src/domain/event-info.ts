// The `event_info` layout per kind (decisions section 9 leaves the keys to us; docs/data-format.md
// documents them). Each declaration gives the output key (the kind block's camelCase name, in
// output order, following reference/gfw-examples), the snake_case source key, the value type,
// and how the `gfw` wire format writes it. The loader's SQL (validation, typed storage columns)
// and the shaper's kind blocks are both generated from these declarations, so the layout is
// written exactly once.
import type { EventKind } from './kinds.ts';

export type ScalarType = 'number' | 'integer' | 'string' | 'boolean';

export interface ScalarField {
  key: string;
  source: string;
  type: ScalarType;
  /** The live service writes this value as a decimal string (decisions section 5, `gfw`). */
  gfwString?: boolean;
  /** The loader rejects a row without it: a filter depends on it. */
  required?: boolean;
  /** Stored lower case (decisions section 5: `encounter.type` is lower case). */
  lowerCase?: boolean;
}

export interface ObjectField {
  key: string;
  source: string;
  fields: ScalarField[];
  required?: boolean;
}

export type InfoField = ScalarField | ObjectField;

export function isObjectField(f: InfoField): f is ObjectField {
  return 'fields' in f;
}

const num = (key: string, source: string, extra: Partial<ScalarField> = {}): ScalarField => ({ key, source, type: 'number', ...extra });
const str = (key: string, source: string, extra: Partial<ScalarField> = {}): ScalarField => ({ key, source, type: 'string', ...extra });
const bool = (key: string, source: string, extra: Partial<ScalarField> = {}): ScalarField => ({ key, source, type: 'boolean', ...extra });
const int = (key: string, source: string, extra: Partial<ScalarField> = {}): ScalarField => ({ key, source, type: 'integer', ...extra });

const latLon = (gfwString: boolean): ScalarField[] => [
  num('lat', 'lat', { gfwString }),
  num('lon', 'lon', { gfwString }),
];

const anchorage = (key: string, source: string, required = false): ObjectField => ({
  key,
  source,
  required,
  fields: [
    str('anchorageId', 'anchorage_id'),
    bool('atDock', 'at_dock'),
    num('distanceFromShoreKm', 'distance_from_shore_km', { gfwString: true }),
    str('flag', 'flag'),
    str('id', 'id', { required }),
    num('lat', 'lat'),
    num('lon', 'lon'),
    str('name', 'name'),
    str('topDestination', 'top_destination'),
  ],
});

export const EVENT_INFO_FIELDS: Record<EventKind, InfoField[]> = {
  fishing: [
    num('totalDistanceKm', 'total_distance_km'),
    num('averageSpeedKnots', 'average_speed_knots'),
    num('averageDurationHours', 'average_duration_hours'),
    bool('potentialRisk', 'potential_risk'),
    str('vesselPublicAuthorizationStatus', 'vessel_public_authorization_status'),
  ],
  // `vessel` (the other vessel) comes first in the block but from event_vessels, not event_info.
  encounter: [
    num('medianDistanceKilometers', 'median_distance_kilometers'),
    num('medianSpeedKnots', 'median_speed_knots'),
    str('type', 'type', { required: true, lowerCase: true }),
    bool('potentialRisk', 'potential_risk'),
    str('mainVesselPublicAuthorizationStatus', 'main_vessel_public_authorization_status'),
    str('encounteredVesselPublicAuthorizationStatus', 'encountered_vessel_public_authorization_status'),
  ],
  loitering: [
    num('totalTimeHours', 'total_time_hours'),
    num('totalDistanceKm', 'total_distance_km'),
    num('averageSpeedKnots', 'average_speed_knots'),
    num('averageDistanceFromShoreKm', 'average_distance_from_shore_km'),
  ],
  gap: [
    bool('intentionalDisabling', 'intentional_disabling', { required: true }),
    num('distanceKm', 'distance_km', { gfwString: true }),
    num('durationHours', 'duration_hours'),
    num('impliedSpeedKnots', 'implied_speed_knots', { gfwString: true }),
    int('positions12HoursBeforeSat', 'positions_12_hours_before_sat', { gfwString: true }),
    num('positionsPerDaySatReception', 'positions_per_day_sat_reception'),
    { key: 'offPosition', source: 'off_position', fields: latLon(false) },
    { key: 'onPosition', source: 'on_position', fields: latLon(true) },
  ],
  port_visit: [
    str('visitId', 'visit_id'),
    int('confidence', 'confidence', { gfwString: true, required: true }),
    num('durationHrs', 'duration_hrs'),
    anchorage('startAnchorage', 'start_anchorage'),
    anchorage('intermediateAnchorage', 'intermediate_anchorage', true),
    anchorage('endAnchorage', 'end_anchorage'),
  ],
};

/** One element of `event_vessels` (the source layout), in the order the entry's `vessel` object uses. */
export const PUBLIC_AUTHORIZATION_FIELDS: ScalarField[] = [
  str('hasPubliclyListedAuthorization', 'has_publicly_listed_authorization'),
  str('rfmo', 'rfmo'),
];
export const NEXT_PORT_FIELDS: ScalarField[] = [str('id', 'id'), str('name', 'name'), str('flag', 'flag')];

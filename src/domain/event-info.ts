// The `event_info` layout per kind, whose keys are ours to choose and are documented
// (docs/data-format.md, "`event_info` keys per kind"). Each declaration gives the output key (the
// kind block's camelCase name, in output order, following reference/gfw-examples), the snake_case
// source key, the value type, and how the `gfw` wire format writes it. The loader's SQL
// (validation, typed storage columns) and the shaper's kind blocks are both generated from these
// declarations, so the layout is written exactly once.
import type { EventKind } from './kinds.ts';

export type ScalarType = 'number' | 'integer' | 'string' | 'boolean';

export interface ScalarField {
  key: string;
  source: string;
  type: ScalarType;
  /** The live service writes this value as a decimal string (docs/api.md, "Wire formats", `gfw`). */
  gfwString?: boolean;
  /** The loader rejects a row without it: a filter depends on it. */
  required?: boolean;
  /** Stored lower case (docs/api.md, "Entry": `encounter.type` is lower case). */
  lowerCase?: boolean;
  /** What it means, for /openapi.json. */
  description?: string;
}

export interface ObjectField {
  key: string;
  source: string;
  fields: ScalarField[];
  required?: boolean;
  description?: string;
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
  num('lat', 'lat', { gfwString, description: 'latitude, degrees' }),
  num('lon', 'lon', { gfwString, description: 'longitude, degrees' }),
];

const anchorage = (key: string, source: string, description: string, required = false): ObjectField => ({
  key,
  source,
  required,
  description,
  fields: [
    str('anchorageId', 'anchorage_id', { description: "the anchorage's id (an S2 cell token)" }),
    bool('atDock', 'at_dock', { description: 'true when the anchorage is at a dock' }),
    num('distanceFromShoreKm', 'distance_from_shore_km', { gfwString: true, description: "the anchorage's distance from shore, km" }),
    str('flag', 'flag', { description: "the anchorage's country (ISO3)" }),
    str('id', 'id', { required, description: "the port's id, e.g. esp-vigo (the portIds filter reads the intermediate anchorage's)" }),
    num('lat', 'lat', { description: 'latitude, degrees' }),
    num('lon', 'lon', { description: 'longitude, degrees' }),
    str('name', 'name', { description: "the port's name" }),
    str('topDestination', 'top_destination', { description: 'the destination vessels most often report when leaving it' }),
  ],
});

export const EVENT_INFO_FIELDS: Record<EventKind, InfoField[]> = {
  fishing: [
    num('totalDistanceKm', 'total_distance_km', { description: 'distance covered during the event, km' }),
    num('averageSpeedKnots', 'average_speed_knots', { description: 'average speed over ground, knots' }),
    num('averageDurationHours', 'average_duration_hours', { description: 'hours of apparent fishing' }),
    bool('potentialRisk', 'potential_risk', { description: 'true when the event happened where or when the vessel had no public authorization known to the pipeline' }),
    str('vesselPublicAuthorizationStatus', 'vessel_public_authorization_status', { description: "authorized, partially, unknown or pending: the vessel's public authorizations in the RFMO areas of the event" }),
  ],
  // `vessel` (the other vessel) comes first in the block but from event_vessels, not event_info.
  encounter: [
    num('medianDistanceKilometers', 'median_distance_kilometers', { description: 'median distance between the two vessels, km' }),
    num('medianSpeedKnots', 'median_speed_knots', { description: 'median speed of the two vessels, knots' }),
    str('type', 'type', { required: true, lowerCase: true, description: "the two vessels' types, this entry's vessel first (carrier-fishing, fishing-carrier, ...)" }),
    bool('potentialRisk', 'potential_risk', { description: 'true when the event happened where or when the vessel had no public authorization known to the pipeline' }),
    str('mainVesselPublicAuthorizationStatus', 'main_vessel_public_authorization_status', { description: "public authorization status of this entry's vessel" }),
    str('encounteredVesselPublicAuthorizationStatus', 'encountered_vessel_public_authorization_status', { description: 'public authorization status of the other vessel' }),
  ],
  loitering: [
    num('totalTimeHours', 'total_time_hours', { description: 'hours spent loitering' }),
    num('totalDistanceKm', 'total_distance_km', { description: 'distance covered during the event, km' }),
    num('averageSpeedKnots', 'average_speed_knots', { description: 'average speed over ground, knots' }),
    num('averageDistanceFromShoreKm', 'average_distance_from_shore_km', { description: 'average distance from shore, km' }),
  ],
  gap: [
    bool('intentionalDisabling', 'intentional_disabling', { required: true, description: 'true when the gap looks like AIS switched off on purpose (the gapIntentionalDisabling filter)' }),
    num('distanceKm', 'distance_km', { gfwString: true, description: 'distance between the last position before and the first after the gap, km; null while the gap is open' }),
    num('durationHours', 'duration_hours', { description: 'hours without AIS' }),
    num('impliedSpeedKnots', 'implied_speed_knots', { gfwString: true, description: "the speed the gap's distance and duration imply, knots; null while open" }),
    int('positions12HoursBeforeSat', 'positions_12_hours_before_sat', { gfwString: true, description: 'satellite positions received in the 12 hours before the gap' }),
    num('positionsPerDaySatReception', 'positions_per_day_sat_reception', { description: 'satellite reception where the gap began, positions a day' }),
    { key: 'offPosition', source: 'off_position', fields: latLon(false), description: 'the last position before AIS went off' },
    { key: 'onPosition', source: 'on_position', fields: latLon(true), description: 'the first position after it came back; null while the gap is open' },
  ],
  port_visit: [
    str('visitId', 'visit_id', { description: "the visit's id" }),
    int('confidence', 'confidence', { gfwString: true, required: true, description: '2 (low), 3 (medium) or 4 (high): how sure the pipeline is of the visit (the confidences filter)' }),
    num('durationHrs', 'duration_hrs', { description: 'hours in port' }),
    anchorage('startAnchorage', 'start_anchorage', 'where the visit began'),
    anchorage('intermediateAnchorage', 'intermediate_anchorage', 'the anchorage that names the visit\'s port (the portIds filter)', true),
    anchorage('endAnchorage', 'end_anchorage', 'where the visit ended'),
  ],
};

/** One element of `event_vessels` (the source layout), in the order the entry's `vessel` object uses. */
export const PUBLIC_AUTHORIZATION_FIELDS: ScalarField[] = [
  str('hasPubliclyListedAuthorization', 'has_publicly_listed_authorization'),
  str('rfmo', 'rfmo'),
];
export const NEXT_PORT_FIELDS: ScalarField[] = [str('id', 'id'), str('name', 'name', { description: "the port's name" }), str('flag', 'flag', { description: "the anchorage's country (ISO3)" })];

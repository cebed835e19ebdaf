// What an update (`load --update`) makes, whatever the engine: a new version of each dataset it
// touches, made from that dataset's latest version (src/store/duckdb/update.ts and
// src/store/postgres/update.ts write its rows).
import { DATASET_ID_BY_KIND, type EventKind } from '../domain/kinds.ts';
import { latestVersionOf, type DatasetVersion } from '../query/datasets.ts';
import { LoadRefused, newVersionIds, type UpdateRequest } from './writer.ts';

/** The version an update applies to and the id of the one it makes, per dataset. */
export interface UpdateTarget {
  kind: EventKind;
  base: DatasetVersion;
  versionId: number;
}

/**
 * The new versions of an update with rows of `rowKinds` and the given removals: one per dataset
 * touched, after every loaded version's id. Refused when a dataset has no version yet (there is
 * nothing to apply the rows to) or already has the tag.
 */
export function updateTargets(existing: DatasetVersion[], rowKinds: EventKind[], update: UpdateRequest, tag: string): UpdateTarget[] {
  const kinds = [...new Set([...rowKinds, ...update.removals.map((r) => r.kind)])].sort();
  if (kinds.length === 0) throw new LoadRefused('the update holds no valid rows and no ids to remove');
  const ids = newVersionIds(existing, kinds, tag);
  return kinds.map((kind) => {
    // `latest`, as requests resolve it.
    const base = latestVersionOf(existing, kind);
    if (!base) throw new LoadRefused(`${DATASET_ID_BY_KIND[kind]} has no version to update; load it first without --update`);
    return { kind, base, versionId: ids.get(kind)! };
  });
}

/** The refusal for an id to remove that the version it applies to does not hold. */
export function unknownRemoval(file: string, line: number, id: string, base: DatasetVersion): LoadRefused {
  return new LoadRefused(`${file}:${line}: event id "${id}" is not in ${base.datasetId}:${base.version}, the version this update applies to`);
}

/** The refusal for an id that is both removed and given as a row. */
export function removedAndGiven(file: string, line: number, id: string): LoadRefused {
  return new LoadRefused(`${file}:${line}: event id "${id}" is to be removed and is also a row of the update`);
}

/** The refusal for an update that would leave a dataset empty. */
export function leftEmpty(base: DatasetVersion): LoadRefused {
  return new LoadRefused(`the update would leave ${base.datasetId} with no events; drop the version instead (vessel-events versions drop)`);
}

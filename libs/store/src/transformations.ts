import type { Collection } from 'mongodb';
import { keyedCollection } from './keyed-collection';
import type { Store } from './store';

/*
 * Transformations as stored: one head per scope (an endpoint or a target: `_id` is its id) with
 * the active version's code, and one document per saved version (`_id` = `<scope id>:<version>`).
 * Every read, update and delete is an equality on one `_id`, which FerretDB answers from its
 * primary key: several ids are read one `find` each with several in flight, and deleted one
 * `deleteOne` statement each (KeyedCollection), never by `_id: {$in}`, which FerretDB 1.24 answers
 * by reading the whole collection. A version number is claimed by inserting its document, exclusive
 * even where conditional updates are not (as endpoint revisions are, models/endpoint.ts).
 */

/** versions kept per scope: the oldest is deleted when a save passes this many */
export const MAX_TRANSFORMATION_VERSIONS = 50;

export type TransformationScope = 'endpoint' | 'target';

export interface TransformationVersionRecord {
  scope_id: string;
  scope: TransformationScope;
  account_id: string;
  endpoint_id: string;
  version: number;
  code: string;
  /** the API key prefix that saved it, and that key's name */
  saved_by: string;
  saved_by_name: string | null;
  saved_at: Date;
  /** set when this version was made by restoring an older one */
  restored_from: number | null;
}

export interface TransformationHead {
  scope_id: string;
  scope: TransformationScope;
  account_id: string;
  endpoint_id: string;
  /** the highest version saved */
  latest: number;
  /** what runs; null when the transformation was removed (its versions are kept) */
  active: { version: number; code: string } | null;
  updated_at: Date;
}

type HeadDoc = Omit<TransformationHead, 'scope_id'> & { _id: string };
type VersionDoc = Omit<TransformationVersionRecord, never> & { _id: string };

const heads = (store: Store): Collection<HeadDoc> => store.connection.collection<HeadDoc>('transformations');
const versions = (store: Store): Collection<VersionDoc> =>
  store.connection.collection<VersionDoc>('transformation_versions');
const versionId = (scopeId: string, version: number): string => `${scopeId}:${version}`;

const toHead = ({ _id, ...rest }: HeadDoc): TransformationHead => ({ ...rest, scope_id: _id });
const toVersion = ({ _id, ...rest }: VersionDoc): TransformationVersionRecord => rest;

/** The heads of these scopes (one `_id` read each; a scope without a transformation is absent). */
export async function transformationHeads(store: Store, scopeIds: readonly string[]): Promise<TransformationHead[]> {
  return (await keyedCollection(heads(store)).getMany([...scopeIds])).map(toHead);
}

/** The `_id`s of the versions a scope may still hold, newest first. */
function keptVersionIds(scopeId: string, latest: number): string[] {
  const ids: string[] = [];
  for (let n = latest; n > Math.max(0, latest - MAX_TRANSFORMATION_VERSIONS); n -= 1) ids.push(versionId(scopeId, n));
  return ids;
}

/**
 * Saves `code` as the scope's next version and makes it the active one. Two saves at once get
 * two numbers; the head keeps the higher. Versions past MAX_TRANSFORMATION_VERSIONS are deleted.
 */
export async function saveTransformationVersion(
  store: Store,
  v: Omit<TransformationVersionRecord, 'version' | 'saved_at'>,
): Promise<TransformationVersionRecord> {
  for (let tries = 0; ; tries += 1) {
    const [head] = await transformationHeads(store, [v.scope_id]);
    const record: TransformationVersionRecord = { ...v, version: (head?.latest ?? 0) + 1, saved_at: new Date() };
    try {
      await versions(store).insertOne({ _id: versionId(v.scope_id, record.version), ...record });
    } catch (err) {
      if ((err as { code?: number }).code === 11000 && tries < 5) continue;
      throw err;
    }
    await setHead(store, record);
    const expired = record.version - MAX_TRANSFORMATION_VERSIONS;
    if (expired > 0) await versions(store).deleteOne({ _id: versionId(v.scope_id, expired) });
    return record;
  }
}

async function setHead(store: Store, r: TransformationVersionRecord): Promise<void> {
  const fields = {
    scope: r.scope,
    account_id: r.account_id,
    endpoint_id: r.endpoint_id,
    latest: r.version,
    active: { version: r.version, code: r.code },
    updated_at: r.saved_at,
  };
  try {
    await heads(store).updateOne({ _id: r.scope_id, latest: { $lt: r.version } }, { $set: fields }, { upsert: true });
  } catch (err) {
    // the head exists with a higher version: a save that started later already won
    if ((err as { code?: number }).code !== 11000) throw err;
  }
}

/** Removes the active transformation of a scope (its versions stay restorable); false when none was active. */
export async function clearTransformation(store: Store, scopeId: string): Promise<boolean> {
  const r = await heads(store).updateOne(
    { _id: scopeId, active: { $ne: null } },
    { $set: { active: null, updated_at: new Date() } },
  );
  return r.modifiedCount > 0;
}

/** One version of a scope's transformation, or null. */
export async function transformationVersion(
  store: Store,
  scopeId: string,
  version: number,
): Promise<TransformationVersionRecord | null> {
  const doc = await versions(store).findOne({ _id: versionId(scopeId, version) });
  return doc ? toVersion(doc) : null;
}

/** The kept versions of a scope, newest first (one `_id` read per version up to `latest`). */
export async function transformationVersions(
  store: Store,
  scopeId: string,
  latest: number,
): Promise<TransformationVersionRecord[]> {
  const docs = await keyedCollection(versions(store)).getMany(keptVersionIds(scopeId, latest));
  return docs.map(toVersion).sort((a, b) => b.version - a.version);
}

/** Deletes a scope's head and versions (its endpoint or target was deleted). */
export async function deleteTransformations(store: Store, scopeIds: readonly string[]): Promise<void> {
  if (scopeIds.length === 0) return;
  const found = await transformationHeads(store, scopeIds);
  // versions first: a delete cut short leaves the head, which a retry reads to find them again
  await keyedCollection(versions(store)).delete(found.flatMap((h) => keptVersionIds(h.scope_id, h.latest)));
  await keyedCollection(heads(store)).delete([...scopeIds]);
}

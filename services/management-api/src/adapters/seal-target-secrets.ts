import type { Store } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';

export interface SealReport {
  /** targets whose stored config was rewritten with its credential sealed */
  sealed: number;
  /** targets that had nothing left to seal (or whose kind stores nothing sealable) */
  unchanged: number;
  /** targets changed by someone else between the read and the write; run again */
  skipped: number;
}

/**
 * Seals credentials that targets still store in plaintext — chat webhook URLs saved before
 * they were sealed (issue 9, item 9) — through each kind's `sealPlaintext`, so adding a kind
 * touches nothing here. Each rewrite is conditional on the config read (compare-and-set on the
 * whole config), so a concurrent change is never overwritten; idempotent.
 */
export async function sealTargetSecrets(store: Store, registry: TargetRegistry): Promise<SealReport> {
  const report: SealReport = { sealed: 0, unchanged: 0, skipped: 0 };
  const docs = await store.targets.find({}, { _id: 1, kind: 1, config: 1 }).lean();
  for (const doc of docs) {
    const sealed = registry.get(doc.kind)?.sealPlaintext?.(doc.config);
    if (!sealed) {
      report.unchanged += 1;
      continue;
    }
    const res = await store.targets.updateOne({ _id: doc._id, config: doc.config }, { $set: { config: sealed, updated_at: new Date() } });
    if (res.modifiedCount === 1) report.sealed += 1;
    else report.skipped += 1;
  }
  return report;
}

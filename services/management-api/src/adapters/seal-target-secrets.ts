import { replaceTargetConfig, targetConfigsPage } from '@relay/store';
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
 * they were sealed — through each kind's `sealPlaintext`, so adding a kind
 * touches nothing here. Each rewrite is conditional on the config read (compare-and-set on the
 * whole config), so a concurrent change is never overwritten; idempotent.
 */
/** Targets read per store command: the walk holds one page at a time whatever the store holds. */
const PAGE = 500;

export async function sealTargetSecrets(store: Store, registry: TargetRegistry): Promise<SealReport> {
  const report: SealReport = { sealed: 0, unchanged: 0, skipped: 0 };
  for (let after: string | null = null; ;) {
    const page = await targetConfigsPage(store, after, PAGE);
    for (const target of page) {
      const sealed = registry.get(target.kind)?.sealPlaintext?.(target.config);
      if (!sealed) report.unchanged += 1;
      else if (await replaceTargetConfig(store, target.id, target.config, sealed)) report.sealed += 1;
      else report.skipped += 1;
    }
    if (page.length < PAGE) return report;
    after = page[page.length - 1]!.id;
  }
}

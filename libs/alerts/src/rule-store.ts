import { newId } from '@relay/contracts';
import type { Store } from '@relay/store';
import { RULE_LIMITS } from './describe';
import type { AlertRule, AlertRuleInput } from './rules';

type RuleDoc = Omit<AlertRule, 'id'> & { _id: string };

const toRule = ({ _id, ...rest }: RuleDoc): AlertRule => ({ id: _id, ...rest });

/**
 * Alert rules, one document each in `alert_rules` on the store's connection, read by `_id` or by
 * `account_id` (indexed: on FerretDB's PostgreSQL backend the index's GIN twin serves it,
 * docs/architecture.md). An account has at most RULE_LIMITS.maxRulesPerAccount rules, so a read
 * by account is bounded whatever the store holds.
 */
export class AlertRuleStore {
  constructor(private readonly store: Store) {}

  private get rules() {
    return this.store.connection.collection<RuleDoc>('alert_rules');
  }

  /** Creates the account index (idempotent); called once at start-up. */
  async ensureIndexes(): Promise<void> {
    await this.rules.createIndex({ account_id: 1 }, { name: 'account_id_1' });
  }

  async listByAccount(accountId: string): Promise<AlertRule[]> {
    const docs = await this.rules
      .find({ account_id: accountId })
      .limit(RULE_LIMITS.maxRulesPerAccount + 1)
      .toArray();
    return docs.map(toRule).sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
  }

  async get(accountId: string, id: string): Promise<AlertRule | null> {
    const doc = await this.rules.findOne({ _id: id });
    return doc && doc.account_id === accountId ? toRule(doc) : null;
  }

  /** null when the account already has the most rules it may have */
  async create(accountId: string, input: AlertRuleInput, now: Date): Promise<AlertRule | null> {
    if ((await this.listByAccount(accountId)).length >= RULE_LIMITS.maxRulesPerAccount) return null;
    const doc: RuleDoc = { _id: newId('ar'), account_id: accountId, ...input, created_at: now, updated_at: now };
    await this.rules.insertOne(doc);
    return toRule(doc);
  }

  async replace(accountId: string, id: string, input: AlertRuleInput, now: Date): Promise<AlertRule | null> {
    const before = await this.get(accountId, id);
    if (!before) return null;
    await this.rules.updateOne({ _id: id }, { $set: { ...input, updated_at: now } });
    return { ...before, ...input, updated_at: now };
  }

  async delete(accountId: string, id: string): Promise<AlertRule | null> {
    const before = await this.get(accountId, id);
    if (!before) return null;
    await this.rules.deleteOne({ _id: id });
    return before;
  }
}

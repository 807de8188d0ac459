import { createHash } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { Store } from '@relay/store';
import type { ApiKeyRole } from '../domain/roles';

/** A person of an account: the identity (issuer + subject) that accepted the invitation. */
export interface MemberDoc {
  _id: string;
  account_id: string;
  /** sha256 of account, issuer and subject: the unique key a sign-in finds its member by */
  identity: string;
  issuer: string;
  subject: string;
  email: string;
  /** the ID token's `name` at acceptance; null when it had none */
  name: string | null;
  role: ApiKeyRole;
  /** the actor that invited them */
  invited_by: string;
  created_at: Date;
}

/** An open invitation: the token itself is only in the mail, the store holds its digest. */
export interface InvitationDoc {
  _id: string;
  account_id: string;
  digest: string;
  email: string;
  role: ApiKeyRole;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

/** An account's OpenID Connect provider; `client_secret` sealed with SECRETS_KEYS. */
export interface IdentityProviderDoc {
  /** the account id: one provider per account */
  _id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  updated_at: Date;
  updated_by: string;
}

export const identityKeyOf = (accountId: string, issuer: string, subject: string): string =>
  createHash('sha256')
    .update(JSON.stringify([accountId, issuer, subject]))
    .digest('hex');

/**
 * Members, invitations and identity providers (collections `members`, `member_invitations`,
 * `identity_providers`). Every read is by `_id` or by a field with its own index — the same
 * shapes as API keys (`digest`, `account_id`) — so none grows with the collection.
 */
export class MemberStore {
  private readonly members: Collection<MemberDoc>;
  private readonly invitations: Collection<InvitationDoc>;
  private readonly providers: Collection<IdentityProviderDoc>;
  private ready: Promise<void> | null = null;

  constructor(store: Store) {
    const db = store.connection;
    this.members = db.collection<MemberDoc>('members');
    this.invitations = db.collection<InvitationDoc>('member_invitations');
    this.providers = db.collection<IdentityProviderDoc>('identity_providers');
  }

  /** Creates the indexes once per process, before the first query that needs one. */
  private indexed(): Promise<void> {
    this.ready ??= (async () => {
      await this.members.createIndex({ identity: 1 }, { unique: true });
      await this.members.createIndex({ account_id: 1 });
      await this.invitations.createIndex({ digest: 1 }, { unique: true });
      await this.invitations.createIndex({ account_id: 1 });
    })().catch((err: unknown) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  async provider(accountId: string): Promise<IdentityProviderDoc | null> {
    return this.providers.findOne({ _id: accountId });
  }

  async saveProvider(doc: IdentityProviderDoc): Promise<void> {
    await this.providers.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async removeProvider(accountId: string): Promise<boolean> {
    return (await this.providers.deleteOne({ _id: accountId })).deletedCount > 0;
  }

  async member(memberId: string): Promise<MemberDoc | null> {
    return this.members.findOne({ _id: memberId });
  }

  async memberByIdentity(identity: string): Promise<MemberDoc | null> {
    await this.indexed();
    return this.members.findOne({ identity });
  }

  /** The account's members, oldest first (an account's members are few, like its keys). */
  async membersOf(accountId: string): Promise<MemberDoc[]> {
    await this.indexed();
    return this.members.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).toArray();
  }

  /** False when that identity is already a member of the account (the unique index decides). */
  async addMember(doc: MemberDoc): Promise<boolean> {
    await this.indexed();
    try {
      await this.members.insertOne(doc);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async removeMember(accountId: string, memberId: string): Promise<boolean> {
    return (await this.members.deleteOne({ _id: memberId, account_id: accountId })).deletedCount > 0;
  }

  async invite(doc: InvitationDoc): Promise<void> {
    await this.indexed();
    await this.invitations.insertOne(doc);
  }

  async invitationsOf(accountId: string): Promise<InvitationDoc[]> {
    await this.indexed();
    return this.invitations.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).toArray();
  }

  async invitationByDigest(digest: string): Promise<InvitationDoc | null> {
    await this.indexed();
    return this.invitations.findOne({ digest });
  }

  /**
   * Deletes the invitation; true for the one caller that deleted it. Accepting deletes first and
   * adds the member after, so a token is used once even by two sign-ins at the same moment.
   */
  async removeInvitation(accountId: string, invitationId: string): Promise<boolean> {
    return (await this.invitations.deleteOne({ _id: invitationId, account_id: accountId })).deletedCount > 0;
  }
}

import type { TestCredentials } from './credentials';

/** A request as a provider would send it; the suite adds the body and the URL. */
export interface SignedRequest {
  headers: Record<string, string>;
  /** Defaults to application/json. */
  contentType?: string;
  /** Defaults to the suite's URL (a signer may add a query parameter, as Twilio does). */
  url?: string;
  /** A body the provider builds around the secret (Microsoft Graph's clientState); defaults to the suite's. */
  body?: Buffer;
}

export interface SignInput {
  credentials: TestCredentials;
  body: Buffer;
  /** The signing time. */
  at: Date;
  url: string;
}

/** One provider's signer, written in the test from the provider's docs or SDK. */
export type Signer = (input: SignInput) => SignedRequest | Promise<SignedRequest>;

/** The body a provider sends: JSON by default, a form for Twilio-like and Slack-command providers, or its own. */
export interface SignerCase {
  sign: Signer;
  body?: 'json' | 'form' | { raw: string; contentType: string };
}

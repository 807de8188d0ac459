import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { SecretFormat } from '@relay/endpoints';
import { rsaKeyPair } from '../rsa-keys';

/** What a test signer holds: the secret as the endpoint stores it, and a private key for public-key presets. */
export interface TestCredentials {
  secret: string;
  privateKey?: KeyObject;
}

/** Fresh credentials in the format the preset's provider issues (the settings model validates them). */
export function credentialsFor(format: SecretFormat, label: string): TestCredentials {
  switch (format) {
    case 'text':
      return { secret: `${label}-${randomBytes(9).toString('base64url')}` };
    case 'whsec':
      return { secret: `whsec_${randomBytes(24).toString('base64')}` };
    case 'base64':
      return { secret: randomBytes(32).toString('base64') };
    case 'hex':
      return { secret: randomBytes(32).toString('hex') };
    case 'ed25519_public_key_hex':
    case 'ed25519_public_key_base64': {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
      return { secret: raw.toString(format === 'ed25519_public_key_hex' ? 'hex' : 'base64'), privateKey };
    }
    case 'public_key_pem': {
      const pair = rsaKeyPair();
      return { secret: pair.publicKey.trim(), privateKey: createPrivateKey(pair.privateKey) };
    }
    case 'sns_topic_arn':
      return { secret: `arn:aws:sns:us-east-1:123456789012:${label.replace(/[^A-Za-z0-9_-]/g, '-')}` };
    case 'paypal_webhook_id':
      return { secret: randomBytes(8).toString('hex').toUpperCase() };
    case 'ebay_client_credentials':
      return {
        secret: `Relay-${label.replace(/[^A-Za-z0-9]/g, '')}-PRD-${randomBytes(4).toString('hex')}:PRD-${randomBytes(12).toString('hex')}`,
      };
    case 'public_key_spki_base64': {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      return { secret: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'), privateKey };
    }
  }
}

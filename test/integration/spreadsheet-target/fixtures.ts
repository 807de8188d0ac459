import { createPrivateKey, randomBytes } from 'node:crypto';
import { DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { createSheetsClient, createTokenSource } from '../../../libs/targets/src/transports/google';
import type { TokenSource } from '../../../libs/targets/src/transports/google';
import {
  deliverToSheet,
  spreadsheetInfo,
  validateSpreadsheetConfig,
} from '../../../libs/targets/src/kinds/spreadsheet';
import type { SpreadsheetConfig } from '../../../libs/targets/src/kinds/spreadsheet';
import type { FakeGoogle } from '../../support/fake-google';
import { rsaKeyPair } from '../../support/rsa-keys';

export const SA_EMAIL = 'relay-it@relay-test.iam.gserviceaccount.com';

export function serviceAccount(email = SA_EMAIL): { keyFile: string; publicKey: string } {
  const { privateKey, publicKey } = rsaKeyPair();
  const keyFile = JSON.stringify({
    type: 'service_account',
    project_id: 'relay-test',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: createPrivateKey(privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    // ignored by Relay: tokens are only ever asked of Google's own endpoint
    token_uri: 'http://127.0.0.1:1/token',
  });
  return { keyFile, publicKey };
}

export const secrets = createSecretBox(`it:${randomBytes(32).toString('base64')}`);

/** A saved target: validated as at save, its key sealed as the kind stores it. */
export function target(spreadsheetId: string, keyFile: string, sheetName = 'Sheet1'): SpreadsheetConfig {
  const v = validateSpreadsheetConfig({
    spreadsheet_id: spreadsheetId,
    sheet_name: sheetName,
    service_account_key: keyFile,
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return { ...v.value, service_account_key: secrets.encrypt(v.value.service_account_key) };
}

export function newSpreadsheetId(): string {
  return randomBytes(33).toString('base64url');
}

let seq = 0;
export function delivery(
  body: string,
  contentType: string | null,
  attempt = 1,
  deliveryId?: string,
): DeliveryMessageV1 {
  seq += 1;
  return {
    type: DELIVERY_V1,
    event_id: `evt_sheet${seq}`,
    delivery_id: deliveryId ?? `dlv_sheet${seq}_tgsheet`,
    attempt,
    account_id: 'acc-sheet',
    endpoint_id: 'ep-sheet',
    target_id: 'tg_sheet',
    target_kind: 'spreadsheet',
    received_at: '2026-11-26T12:00:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
    payload: { content_type: contentType, body_base64: Buffer.from(body).toString('base64') },
  };
}

/** The deliverer's side, wired to the fake: one token cache and Sheets client per process. */
export function deliverer(
  fake: FakeGoogle,
  now?: () => number,
): { tokens: TokenSource; deliver: (c: SpreadsheetConfig, d: DeliveryMessageV1) => ReturnType<typeof deliverToSheet> } {
  const tokens = createTokenSource({ send: fake.send, ...(now ? { now } : {}) });
  const sheets = createSheetsClient({ send: fake.send, tokens, appendResendable: spreadsheetInfo.resendable });
  return { tokens, deliver: (c, d) => deliverToSheet(c, d, { sheets, openKey: (stored) => secrets.decrypt(stored) }) };
}

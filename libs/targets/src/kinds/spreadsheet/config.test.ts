import { generateKeyPairSync } from 'node:crypto';
import { validateSpreadsheetConfig } from './config';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keyFile = JSON.stringify({
  type: 'service_account',
  client_email: 'sa@p.iam.gserviceaccount.com',
  private_key: pem,
  private_key_id: 'abc123',
  token_uri: 'http://10.0.0.1/',
});
const ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';

describe('spreadsheet target settings', () => {
  it('keeps the id, the tab and only client_email/private_key/private_key_id of the key', () => {
    const v = validateSpreadsheetConfig({ spreadsheet_id: ID, sheet_name: 'Leads', service_account_key: keyFile });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value).toMatchObject({ spreadsheet_id: ID, sheet_name: 'Leads' });
    expect(JSON.parse(v.value.service_account_key)).toEqual({
      client_email: 'sa@p.iam.gserviceaccount.com',
      private_key: pem,
      private_key_id: 'abc123',
    });
  });

  it('takes the sheet URL for the id, and Sheet1 when no tab is named', () => {
    const v = validateSpreadsheetConfig({
      spreadsheet_id: `https://docs.google.com/spreadsheets/d/${ID}/edit#gid=0`,
      service_account_key: keyFile,
    });
    expect(v).toMatchObject({ ok: true, value: { spreadsheet_id: ID, sheet_name: 'Sheet1' } });
  });

  it('reports every problem at its field and never quotes the key', () => {
    const v = validateSpreadsheetConfig({
      spreadsheet_id: 'short',
      sheet_name: 'a\nb',
      service_account_key: '{"client_email":"x@y.z","private_key":"-----BEGIN PRIVATE KEY-----\\nnope"}',
      extra: 1,
    });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors.map((e) => e.field).sort()).toEqual([
      'config.extra',
      'config.service_account_key',
      'config.sheet_name',
      'config.spreadsheet_id',
    ]);
    expect(JSON.stringify(v.errors)).not.toMatch(/BEGIN|nope/);
  });

  it('requires the key', () => {
    expect(validateSpreadsheetConfig({ spreadsheet_id: ID })).toMatchObject({
      ok: false,
      errors: [{ field: 'config.service_account_key' }],
    });
  });
});

import { startFakeGoogle } from '../../support/fake-google';
import type { FakeGoogle } from '../../support/fake-google';
import { delivery, deliverer, newSpreadsheetId, SA_EMAIL, serviceAccount, target } from './fixtures';

/*
 * A retried append after an ambiguous failure leaves one row; tokens are
 * cached and refreshed; 429 retries; 403/404 and a broken key are permanent and flag the
 * target; Google's cell limits are enforced before sending.
 */

let fake: FakeGoogle;
const sa = serviceAccount();

beforeAll(async () => {
  fake = await startFakeGoogle();
  fake.registerServiceAccount(SA_EMAIL, sa.publicKey);
});
afterAll(() => fake.close());
afterEach(() => {
  fake.setWriteQuota(null);
  fake.setTokenLifetime(3600);
  fake.setCellLimit(10_000_000);
});

function sheet(sharedWith = [SA_EMAIL]) {
  const id = newSpreadsheetId();
  fake.addSpreadsheet(id, { sharedWith });
  return { id, config: target(id, sa.keyFile) };
}
const tokenRequests = (): number => fake.log.filter((l) => l === 'POST /token').length;

describe('Retries never add a row twice', () => {
  it('an append whose answer was lost (applied, then the connection cut) → retry; the retried attempt finds its delivery id and adds nothing', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    expect(await deliver(config, delivery('{"n":0}', 'application/json'))).toMatchObject({ result: 'success' });
    fake.dropNextAppendAnswer();
    const first = delivery('{"n":1}', 'application/json', 1);
    expect(await deliver(config, first)).toMatchObject({ result: 'retry', status: null });
    expect(fake.rows(id)).toHaveLength(3);
    expect(await deliver(config, { ...first, attempt: 2 })).toEqual({ result: 'success', status: 200 });
    const rows = fake.rows(id);
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r[0] === first.delivery_id)).toHaveLength(1);
  });

  it('an append applied, then its reused connection reset before any answer, is not sent again: the attempt is a retry, and after every retry the sheet has one row', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    fake.dropNextAppendConnection();
    const first = delivery('{"n":1}', 'application/json', 1);
    // the token, the header read and the append share one kept-alive connection
    expect(await deliver(config, first)).toMatchObject({
      result: 'retry',
      status: null,
      error: expect.stringContaining('RESET_UNANSWERED'),
    });
    expect(fake.log.filter((l) => l.startsWith('POST') && l.includes(id))).toHaveLength(1);
    expect(await deliver(config, { ...first, attempt: 2 })).toEqual({ result: 'success', status: 200 });
    expect(await deliver(config, { ...first, attempt: 3 })).toEqual({ result: 'success', status: 200 });
    expect(fake.rows(id)).toEqual([
      ['relay_delivery_id', 'n'],
      [first.delivery_id, 1],
    ]);
  });

  it('a retried attempt whose first try never reached the sheet appends its row once', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    const d = delivery('{"n":1}', 'application/json', 2);
    expect(await deliver(config, d)).toEqual({ result: 'success', status: 200 });
    expect(fake.rows(id)).toEqual([
      ['relay_delivery_id', 'n'],
      [d.delivery_id, 1],
    ]);
  });
});

describe('Access tokens', () => {
  it('one token request serves many deliveries (cached until it expires)', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    const before = tokenRequests();
    for (let i = 0; i < 5; i++)
      expect(await deliver(config, delivery(`{"i":${i}}`, 'application/json'))).toMatchObject({ result: 'success' });
    expect(tokenRequests() - before).toBe(1);
  });

  it('an expired token (Google answers 401) is refreshed and the call made again, in the same attempt', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    expect(await deliver(config, delivery('{"a":1}', 'application/json'))).toMatchObject({ result: 'success' });
    fake.expireTokens();
    const before = tokenRequests();
    expect(await deliver(config, delivery('{"a":2}', 'application/json'))).toEqual({ result: 'success', status: 200 });
    expect(tokenRequests() - before).toBe(1);
    expect(fake.rows(id)).toHaveLength(3);
  });

  it('a token about to expire (by its expires_in) is replaced before use, without a 401', async () => {
    let clock = Date.now();
    const { deliver } = deliverer(fake, () => clock);
    const { config } = sheet();
    fake.setTokenLifetime(90);
    expect(await deliver(config, delivery('{"a":1}', 'application/json'))).toMatchObject({ result: 'success' });
    const before = tokenRequests();
    const unauthorized = fake.log.length;
    // 50 s on, the 90 s token has 40 s left: under the one-minute margin, so it is replaced
    clock += 50_000;
    expect(await deliver(config, delivery('{"a":2}', 'application/json'))).toMatchObject({ result: 'success' });
    expect(tokenRequests() - before).toBe(1);
    expect(fake.log.slice(unauthorized)[0]).toBe('POST /token');
  });

  it('the token_uri of the key file is ignored: tokens are only asked of the Google endpoint', async () => {
    expect(JSON.parse(sa.keyFile).token_uri).toBe('http://127.0.0.1:1/token');
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    expect(await deliver(config, delivery('{}', 'application/json'))).toMatchObject({ result: 'success' });
  });

  it('a key Google does not know (deleted) → invalid_grant: permanent, target flagged; no key material in the error', async () => {
    const stranger = serviceAccount('gone@relay-test.iam.gserviceaccount.com');
    const { deliver } = deliverer(fake);
    const id = newSpreadsheetId();
    fake.addSpreadsheet(id, { sharedWith: ['gone@relay-test.iam.gserviceaccount.com'] });
    const result = await deliver(target(id, stranger.keyFile), delivery('{}', 'application/json'));
    expect(result).toMatchObject({ result: 'permanent', status: 400, flagTarget: true });
    expect(JSON.stringify(result)).not.toMatch(/PRIVATE KEY|private_key/);
  });
});

describe('Google answers → attempt results', () => {
  it('429 RESOURCE_EXHAUSTED (write quota per minute) → retry', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    // the first delivery writes twice (the header row, then its row); the second only appends
    fake.setWriteQuota(2);
    expect(await deliver(config, delivery('{"a":1}', 'application/json'))).toMatchObject({ result: 'success' });
    const result = await deliver(config, delivery('{"a":1}', 'application/json'));
    expect(result).toMatchObject({ result: 'retry', status: 429 });
    expect(result.result === 'retry' && result.error).toMatch(/RESOURCE_EXHAUSTED/);
  });

  it('403 PERMISSION_DENIED (not shared with the service account) → permanent, flagged', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet(['someone-else@example.com']);
    expect(await deliver(config, delivery('{}', 'application/json'))).toMatchObject({
      result: 'permanent',
      status: 403,
      flagTarget: true,
    });
  });

  it('404 NOT_FOUND (no such spreadsheet) → permanent, flagged', async () => {
    const { deliver } = deliverer(fake);
    const config = target(newSpreadsheetId(), sa.keyFile);
    expect(await deliver(config, delivery('{}', 'application/json'))).toMatchObject({
      result: 'permanent',
      status: 404,
      flagTarget: true,
    });
  });

  it('a sheet tab that does not exist → 400 Unable to parse range: permanent, flagged', async () => {
    const { deliver } = deliverer(fake);
    const id = newSpreadsheetId();
    fake.addSpreadsheet(id, { sharedWith: [SA_EMAIL] });
    expect(await deliver(target(id, sa.keyFile, 'Leads'), delivery('{}', 'application/json'))).toMatchObject({
      result: 'permanent',
      status: 400,
      flagTarget: true,
    });
  });

  it('a spreadsheet at its cell limit → permanent, flagged', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    fake.setCellLimit(3);
    expect(await deliver(config, delivery('{"a":1,"b":2}', 'application/json'))).toMatchObject({
      result: 'permanent',
      status: 400,
      flagTarget: true,
    });
  });

  it('a first row that is not the Relay header → permanent, flagged, nothing written', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    fake.spreadsheets.get(id)!.sheets.get('Sheet1')!.push(['Name', 'Email']);
    expect(await deliver(config, delivery('{}', 'application/json'))).toMatchObject({
      result: 'permanent',
      flagTarget: true,
    });
    expect(fake.rows(id)).toEqual([['Name', 'Email']]);
  });
});

describe('Limits enforced before sending', () => {
  it('a value over 50,000 characters (the Google per-cell limit) → PayloadError (permanent, not flagged), no request made', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    const before = fake.log.length;
    // PayloadError: the deliverer fails this delivery without flagging the target
    await expect(
      deliver(config, delivery(JSON.stringify({ big: 'x'.repeat(50_001) }), 'application/json')),
    ).rejects.toMatchObject({ name: 'PayloadError', code: 'CELL_TOO_LARGE' });
    expect(fake.log.length).toBe(before);
  });

  it('exactly 50,000 characters is accepted', async () => {
    const { deliver } = deliverer(fake);
    const { id, config } = sheet();
    expect(
      await deliver(config, delivery(JSON.stringify({ big: 'x'.repeat(50_000) }), 'application/json')),
    ).toMatchObject({ result: 'success' });
    expect((fake.rows(id)[1]![1] as string).length).toBe(50_000);
  });

  it('more columns than the limit → PayloadError (permanent, not flagged)', async () => {
    const { deliver } = deliverer(fake);
    const { config } = sheet();
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`f${i}`, i]));
    await expect(deliver(config, delivery(JSON.stringify(wide), 'application/json'))).rejects.toMatchObject({
      name: 'PayloadError',
      code: 'TOO_MANY_COLUMNS',
    });
  });
});

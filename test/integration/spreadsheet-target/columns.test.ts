import { startFakeGoogle } from '../../support/fake-google';
import type { FakeGoogle } from '../../support/fake-google';
import { delivery, deliverer, newSpreadsheetId, SA_EMAIL, serviceAccount, target } from './fixtures';

/*
 * Spec "Feature interaction", row "Spreadsheet columns", against the local
 * Google fake: the header row and the row each payload format produces. The bytes are what the
 * gateway publishes per format (None → empty; form and both query formats → JSON).
 */

let fake: FakeGoogle;
const sa = serviceAccount();
let deliver: ReturnType<typeof deliverer>['deliver'];

beforeAll(async () => {
  fake = await startFakeGoogle();
  fake.registerServiceAccount(SA_EMAIL, sa.publicKey);
  deliver = deliverer(fake).deliver;
});
afterAll(() => fake.close());

async function sheetAfter(...payloads: Array<[string, string | null]>) {
  const id = newSpreadsheetId();
  fake.addSpreadsheet(id, { sharedWith: [SA_EMAIL] });
  const config = target(id, sa.keyFile);
  const ids: string[] = [];
  for (const [body, type] of payloads) {
    const d = delivery(body, type);
    ids.push(d.delivery_id);
    expect(await deliver(config, d)).toEqual({ result: 'success', status: 200 });
  }
  return { rows: fake.rows(id), ids };
}

describe('Spreadsheet columns per payload format', () => {
  it('None: only the synthetic field `payload`, empty', async () => {
    const { rows, ids } = await sheetAfter(['', null]);
    expect(rows).toEqual([['relay_delivery_id', 'payload'], [ids[0]]]);
  });

  it('Query Parameters: all fields; a repeated name as JSON text; values stay text', async () => {
    const { rows, ids } = await sheetAfter(['{"a":"1","b":["x","y"],"c":"","zip":"007"}', 'application/json']);
    expect(rows).toEqual([
      ['relay_delivery_id', 'a', 'b', 'c', 'zip'],
      [ids[0], '1', '["x","y"]', '', '007'],
    ]);
  });

  it('Base64 JSON with an object root: all fields, nested values as JSON text, numbers and booleans typed', async () => {
    const { rows, ids } = await sheetAfter([
      '{"order":{"id":7},"total":9.5,"paid":true,"note":null}',
      'application/json',
    ]);
    expect(rows).toEqual([
      ['relay_delivery_id', 'order', 'total', 'paid', 'note'],
      [ids[0], '{"id":7}', 9.5, true],
    ]);
  });

  it('Base64 JSON with an array or scalar root (no fields): `payload` holds its JSON text', async () => {
    const { rows, ids } = await sheetAfter(
      ['[1,{"k":true}]', 'application/json'],
      ['"just text"', 'application/json'],
      ['42', 'application/json'],
    );
    expect(rows).toEqual([
      ['relay_delivery_id', 'payload'],
      [ids[0], '[1,{"k":true}]'],
      [ids[1], '"just text"'],
      [ids[2], '42'],
    ]);
  });

  it('JSON and form (delivered as JSON): all top-level fields', async () => {
    const { rows } = await sheetAfter(['{"name":"Ada","email":"ada@example.com"}', 'application/json']);
    expect(rows[0]).toEqual(['relay_delivery_id', 'name', 'email']);
  });

  it('XML and plain text: `payload` holds the text as received', async () => {
    const xml = '<order id="7"><note>a &amp; b</note></order>';
    const { rows, ids } = await sheetAfter([xml, 'application/xml'], ['line one\nline two', 'text/plain']);
    expect(rows).toEqual([
      ['relay_delivery_id', 'payload'],
      [ids[0], xml],
      [ids[1], 'line one\nline two'],
    ]);
  });

  it('a field never seen before adds a column at the end; a missing field leaves its cell empty; earlier rows untouched', async () => {
    const { rows, ids } = await sheetAfter(
      ['{"a":"1","b":"2"}', 'application/json'],
      ['{"b":"3","c":"4"}', 'application/json'],
      ['{"a":"5"}', 'application/json'],
    );
    expect(rows).toEqual([
      ['relay_delivery_id', 'a', 'b', 'c'],
      [ids[0], '1', '2'],
      [ids[1], '', '3', '4'],
      [ids[2], '5'],
    ]);
  });

  it('a value that looks like a formula is stored as text (valueInputOption=RAW)', async () => {
    const { rows } = await sheetAfter(['{"x":"=IMPORTXML(\\"http://evil\\",\\"//a\\")"}', 'application/json']);
    expect(rows[1]![1]).toBe('=IMPORTXML("http://evil","//a")');
    expect(fake.log.filter((l) => l.includes(':append')).length).toBeGreaterThan(0);
  });
});

import { must } from '@relay/client';
import { eventually } from '../support/infra';
import { startFakeGoogle } from '../support/fake-google';
import type { FakeGoogle } from '../support/fake-google';
import { startOutputsDeliverer } from '../support/outputs-deliverer';
import type { RunningService } from '../support/services';
import { startTestSmtpServer } from '../support/smtp-server';
import type { TestSmtpServer } from '../support/smtp-server';
import { newSpreadsheetId, SA_EMAIL, serviceAccount } from '../integration/spreadsheet-target/fixtures';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * An event travels from the gateway to an email and a spreadsheet target through the
 * outputs deliverer (the chat-deliverer program with DELIVERY_CHANNEL=outputs), every service its
 * own process, over HTTP only. The mail relay is a real SMTP server (STARTTLS + AUTH); Google is
 * the local HTTPS fake, reached through GOOGLE_TOKEN_URL / GOOGLE_SHEETS_URL with its CA in
 * GOOGLE_CA_FILE, and the SSRF guard allows 127.0.0.1/32 only.
 */

const SMTP_PASS = 'e2e-relay-Pa55';
let stack: Stack;
let smtp: TestSmtpServer;
let google: FakeGoogle;
let outputs: RunningService;
const sa = serviceAccount();

beforeAll(async () => {
  smtp = await startTestSmtpServer({ security: 'starttls', auth: { user: 'relay', pass: SMTP_PASS } });
  google = await startFakeGoogle();
  google.registerServiceAccount(SA_EMAIL, sa.publicKey);
  // the worker's shared stack runs no outputs deliverer: this file's, pointed at its fakes, takes
  // the channel's queue while the file runs
  stack = await startStack('outputs');
  outputs = await startOutputsDeliverer(stack.env, { smtp, smtpPassword: SMTP_PASS, google });
});

afterAll(async () => {
  await outputs?.stop();
  await stack?.stop();
  await smtp?.close();
  await google?.close();
});

async function endpointWithOutputs(spreadsheetId: string) {
  const endpoint = await must(
    stack.client.POST('/v1/endpoints', {
      body: { name: 'form to outputs', payload_format: 'query', methods: ['GET', 'POST'] },
    }),
  );
  const path = { path: { endpointId: endpoint.id } };
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: path,
      body: { kind: 'email', name: 'ops mail', config: { to: ['ops@example.com'], subject: 'Signup {{email}}' } },
    }),
  );
  const sheet = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: path,
      body: {
        kind: 'spreadsheet',
        name: 'signups sheet',
        config: { spreadsheet_id: spreadsheetId, sheet_name: 'Sheet1', service_account_key: sa.keyFile },
      },
    }),
  );
  return { endpointId: endpoint.id, sheetTarget: sheet };
}

describe('email and spreadsheet targets, end to end', () => {
  it('one GET with query parameters becomes an email (JSON formatting) and a sheet row (all fields); the key is never shown', async () => {
    const spreadsheetId = newSpreadsheetId();
    google.addSpreadsheet(spreadsheetId, { sharedWith: [SA_EMAIL] });
    const { endpointId, sheetTarget } = await endpointWithOutputs(spreadsheetId);
    expect(JSON.stringify(sheetTarget)).not.toMatch(/PRIVATE KEY|private_key/);
    expect(sheetTarget.config.service_account_key).toBe('[redacted]');

    const res = await fetch(
      `${stack.services['ingest-gateway']!.url}/relay/${endpointId}?email=ada%40example.com&plan=pro&tag=a&tag=b`,
    );
    expect(res.status).toBe(202);

    const [mail] = await smtp.waitFor(1, 20_000);
    expect(mail!.parsed.subject).toBe('Signup ada@example.com');
    expect(mail!.parsed.text).toBe(
      '{\n  "email": "ada@example.com",\n  "plan": "pro",\n  "tag": [\n    "a",\n    "b"\n  ]\n}',
    );
    expect(mail!.envelope.to).toEqual(['ops@example.com']);
    expect(mail!.secure).toBe(true);

    const rows = await eventually(
      async () => google.rows(spreadsheetId).length === 2 && google.rows(spreadsheetId),
      20_000,
      'sheet row',
    );
    expect(rows[0]).toEqual(['relay_delivery_id', 'email', 'plan', 'tag']);
    expect(rows[1]!.slice(1)).toEqual(['ada@example.com', 'pro', '["a","b"]']);
    // the Message-ID is the email target's delivery id at the sender's domain
    expect(mail!.parsed.messageId).toMatch(/^<dlv_[0-9a-z_]+@relay\.example>$/);

    // both attempts are in the activity log as delivered
    const activity = await eventually(
      async () => {
        const got = await must(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } }));
        const row = got.data[0];
        return row && JSON.stringify(row).includes('"completed"') && row;
      },
      20_000,
      'activity',
    );
    expect(JSON.stringify(activity)).not.toMatch(/PRIVATE KEY|e2e-relay-Pa55/);
    expect(outputs.output()).not.toMatch(/PRIVATE KEY|e2e-relay-Pa55/);
  });

  it('a spreadsheet not shared with the service account: the target is flagged', async () => {
    const spreadsheetId = newSpreadsheetId();
    google.addSpreadsheet(spreadsheetId, { sharedWith: ['someone@example.com'] });
    const { endpointId } = await endpointWithOutputs(spreadsheetId);
    const before = smtp.received.length;
    expect(
      (await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}?email=b%40example.com`)).status,
    ).toBe(202);
    await smtp.waitFor(before + 1, 20_000);
    const flagged = await eventually(
      async () => {
        const targets = await must(
          stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
        );
        const sheet = targets.data.find((t) => t.kind === 'spreadsheet');
        return sheet?.flagged ? sheet : false;
      },
      20_000,
      'flag',
    );
    expect(JSON.stringify(flagged.flagged)).toMatch(/403|PERMISSION_DENIED|destination/);
  });
});

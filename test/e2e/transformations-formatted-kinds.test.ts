import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { must } from '@relay/client';
import type { ActivityRow, TargetCreate } from '@relay/client';
import { newSpreadsheetId, SA_EMAIL, serviceAccount } from '../integration/spreadsheet-target/fixtures';
import { startFakeGoogle } from '../support/fake-google';
import type { FakeGoogle } from '../support/fake-google';
import { startFakeSlack } from '../support/fake-slack';
import type { FakeSlack } from '../support/fake-slack';
import { startFakeTeams, TEAMS_HOST } from '../support/fake-teams';
import type { FakeTeams } from '../support/fake-teams';
import { eventually } from '../support/infra';
import { startOutputsDeliverer } from '../support/outputs-deliverer';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startTestSmtpServer } from '../support/smtp-server';
import type { TestSmtpServer } from '../support/smtp-server';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Transformations in front of the kinds that format a body (docs/transformations.md "What a
 * result changes": for chat, email and sheet targets, the body they format). The chat
 * deliverer reaches the local HTTPS fakes of Slack and Teams through HOST_ROUTES, their
 * certificates trusted through NODE_EXTRA_CA_CERTS; the outputs deliverer sends mail to the real
 * test SMTP server (STARTTLS + AUTH) and rows to the Google fake. What was delivered is read back
 * from the fakes and the mailbox: message texts, subjects and bodies, and sheet columns come from
 * the transformed body's field names; a `null` drops the event for its target only.
 */

const SMTP_PASS = 'e2e-formatted-Pa55';
const WAIT = 20_000;
let stack: Stack;
let slack: FakeSlack;
let teams: FakeTeams;
let smtp: TestSmtpServer;
let google: FakeGoogle;
let chat: RunningService;
let outputs: RunningService;
const sa = serviceAccount();

beforeAll(async () => {
  slack = await startFakeSlack({ https: true });
  teams = await startFakeTeams();
  smtp = await startTestSmtpServer({ security: 'starttls', auth: { user: 'relay', pass: SMTP_PASS } });
  google = await startFakeGoogle();
  google.registerServiceAccount(SA_EMAIL, sa.publicKey);
  // the worker's shared stack runs no chat or outputs deliverer: this file's, pointed at its
  // fakes, take those channels' queues while the file runs
  stack = await startStack('transform-kinds');
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-transform-kinds-'));
  writeFileSync(path.join(dir, 'platforms-ca.pem'), `${slack.tls!.ca}\n${teams.tls.ca}`);
  [chat, outputs] = await Promise.all([
    startService('chat-deliverer', {
      ...stack.env,
      SSRF_ALLOW_CIDRS: '127.0.0.1/32',
      HOST_ROUTES: [...slack.tls!.routes, ...teams.tls.routes].join(','),
      NODE_EXTRA_CA_CERTS: path.join(dir, 'platforms-ca.pem'),
    }),
    startOutputsDeliverer(stack.env, { smtp, smtpPassword: SMTP_PASS, google }),
  ]);
});

afterAll(async () => {
  await Promise.all([chat?.stop(), outputs?.stop()]);
  await stack?.stop();
  await Promise.all([slack?.close(), teams?.close(), smtp?.close(), google?.close()]);
});

/** The order as the shop sends it; every transformation below renames its fields. */
const ORDER = { id: 'ord_7', amount_cents: 1250, billing: { name: 'Ada', email: 'ada@example.com' } };
/** Renames the order's fields: `order`, `customer`, `email`, `total`; the sender's names are gone. */
const RENAME = `(r) => ({
  ...r,
  body: {
    order: r.body.id,
    customer: r.body.billing.name,
    email: r.body.billing.email,
    total: (r.body.amount_cents / 100).toFixed(2),
    ...(r.body.type ? { type: r.body.type } : {}),
  },
})`;
/** What RENAME makes of ORDER. */
const RENAMED = { order: 'ord_7', customer: 'Ada', email: 'ada@example.com', total: '12.50' };

const unique = (): string => randomBytes(6).toString('hex');

async function endpoint(): Promise<string> {
  const created = await must(stack.client.POST('/v1/endpoints', { body: { name: 'shop' } }));
  return created.id;
}

async function target(endpointId: string, body: TargetCreate): Promise<string> {
  const created = await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } }, body }),
  );
  return created.id;
}

const transformEndpoint = (endpointId: string, code: string) =>
  must(
    stack.client.PUT('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } }, body: { code } }),
  );

const transformTarget = (endpointId: string, targetId: string, code: string) =>
  must(
    stack.client.PUT('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', {
      params: { path: { endpointId, targetId } },
      body: { code },
    }),
  );

async function send(endpointId: string, body: unknown): Promise<string> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

/** The event's row once every target's delivery reached a final state. */
const settled = (eventId: string): Promise<ActivityRow> =>
  eventually(
    async () => {
      const { data } = await stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } });
      return data &&
        data.deliveries.length === data.target_count &&
        data.deliveries.every((d) => d.state !== 'retrying')
        ? data
        : undefined;
    },
    WAIT,
    `${eventId} settled`,
  );

const statesOf = (row: ActivityRow): Record<string, string> =>
  Object.fromEntries(row.deliveries.map((d) => [d.target_id, d.state]));

/** A Slack incoming webhook of the fake's own for one target: its path and the URL Relay is given. */
function slackHook(): { path: string; url: string } {
  const hookPath = `/services/T${unique()}/B${unique()}/${unique()}${unique()}`;
  slack.addHook(hookPath);
  return { path: hookPath, url: `https://hooks.slack.com${hookPath}` };
}
const slackTexts = (hookPath: string): Array<string | null> =>
  slack.messages.filter((m) => m.hook === hookPath).map((m) => m.text);

/** A Teams Workflows trigger of the fake's own for one target: its workflow id and the URL Relay is given. */
function teamsWorkflow(): { id: string; url: string } {
  const id = `${unique()}${unique()}`;
  const sig = `sig_${unique()}${unique()}`;
  teams.addWorkflow(id, sig);
  return {
    id,
    url: `https://${TEAMS_HOST}:443/workflows/${id}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
  };
}
/** The text of each Adaptive Card the workflow got (one TextBlock each). */
const teamsTexts = (workflow: string): unknown[] =>
  teams.posted
    .filter((p) => p.workflow === workflow)
    .map((p) => {
      const [attachment] = p.body.attachments as Array<{ content: { body: Array<{ text: string }> } }>;
      return attachment!.content.body[0]!.text;
    });

const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));

describe('chat targets format the transformed body', () => {
  it('an endpoint transformation renames fields: the Slack and Teams templates read the new names', async () => {
    const endpointId = await endpoint();
    const hook = slackHook();
    const workflow = teamsWorkflow();
    await target(endpointId, {
      kind: 'block_chat',
      name: 'orders slack',
      config: { url: hook.url, template: 'Order {{order}} from {{customer}}: {{total}} EUR' },
    });
    await target(endpointId, {
      kind: 'teams',
      name: 'orders teams',
      config: { url: workflow.url, template: '{{customer}} ordered {{order}} ({{total}} EUR)' },
    });
    await transformEndpoint(endpointId, RENAME);

    const eventId = await send(endpointId, ORDER);
    expect((await settled(eventId)).status).toBe('completed');
    expect(slackTexts(hook.path)).toEqual(['Order ord_7 from Ada: 12.50 EUR']);
    expect(teamsTexts(workflow.id)).toEqual(['Ada ordered ord_7 (12.50 EUR)']);
  });

  it('without a template, the message shows the transformed body, not the one sent', async () => {
    const endpointId = await endpoint();
    const hook = slackHook();
    const workflow = teamsWorkflow();
    await target(endpointId, { kind: 'block_chat', name: 'orders slack', config: { url: hook.url, markup: false } });
    await target(endpointId, { kind: 'teams', name: 'orders teams', config: { url: workflow.url } });
    await transformEndpoint(endpointId, RENAME);

    const eventId = await send(endpointId, ORDER);
    expect((await settled(eventId)).status).toBe('completed');
    const pretty = JSON.stringify(RENAMED, null, 2);
    expect(slackTexts(hook.path)).toEqual([pretty]);
    expect(teamsTexts(workflow.id)).toEqual([pretty]);
  });

  it('null from the Slack target’s transformation drops the event there only: Teams still gets it', async () => {
    const endpointId = await endpoint();
    const hook = slackHook();
    const workflow = teamsWorkflow();
    const slackTarget = await target(endpointId, {
      kind: 'block_chat',
      name: 'orders slack',
      config: { url: hook.url, template: '{{type}}: order {{order}}' },
    });
    const teamsTarget = await target(endpointId, {
      kind: 'teams',
      name: 'orders teams',
      config: { url: workflow.url, template: '{{type}}: order {{order}}' },
    });
    await transformEndpoint(endpointId, RENAME);
    await transformTarget(endpointId, slackTarget, `(r) => (r.body.type === 'test' ? null : r)`);

    const eventId = await send(endpointId, { ...ORDER, type: 'test' });
    const row = await settled(eventId);
    expect(statesOf(row)).toEqual({ [slackTarget]: 'dropped', [teamsTarget]: 'delivered' });
    expect(row.status).toBe('completed');
    expect(teamsTexts(workflow.id)).toEqual(['test: order ord_7']);
    expect(slackTexts(hook.path)).toEqual([]);
  });
});

describe('email and spreadsheet targets format the transformed body', () => {
  async function endpointWithOutputs(): Promise<{
    endpointId: string;
    emailTarget: string;
    sheetTarget: string;
    to: string;
    spreadsheetId: string;
  }> {
    const to = `orders-${unique()}@example.com`;
    const spreadsheetId = newSpreadsheetId();
    google.addSpreadsheet(spreadsheetId, { sharedWith: [SA_EMAIL] });
    const endpointId = await endpoint();
    const emailTarget = await target(endpointId, {
      kind: 'email',
      name: 'orders mail',
      config: { to: [to], subject: 'Order {{order}} for {{email}}' },
    });
    const sheetTarget = await target(endpointId, {
      kind: 'spreadsheet',
      name: 'orders sheet',
      config: { spreadsheet_id: spreadsheetId, sheet_name: 'Sheet1', service_account_key: sa.keyFile },
    });
    await transformEndpoint(endpointId, RENAME);
    return { endpointId, emailTarget, sheetTarget, to, spreadsheetId };
  }

  it('an endpoint transformation renames fields: the subject template, the email body and the sheet’s columns use the new names', async () => {
    const { endpointId, to, spreadsheetId } = await endpointWithOutputs();

    const eventId = await send(endpointId, ORDER);
    expect((await settled(eventId)).status).toBe('completed');
    const [mail, ...more] = mailsTo(to);
    expect(more).toEqual([]);
    expect(mail!.parsed.subject).toBe('Order ord_7 for ada@example.com');
    expect(mail!.parsed.text).toBe(JSON.stringify(RENAMED, null, 2));
    expect(google.rows(spreadsheetId)).toEqual([
      ['relay_delivery_id', 'order', 'customer', 'email', 'total'],
      [expect.stringMatching(/^dlv_/), 'ord_7', 'Ada', 'ada@example.com', '12.50'],
    ]);
  });

  it('null from one target’s transformation drops the event there only: the email’s drop still fills the sheet, the sheet’s still sends the email', async () => {
    const { endpointId, emailTarget, sheetTarget, to, spreadsheetId } = await endpointWithOutputs();
    await transformTarget(endpointId, emailTarget, `(r) => (r.body.type === 'internal' ? null : r)`);
    await transformTarget(endpointId, sheetTarget, `(r) => (r.body.type === 'test' ? null : r)`);

    const internal = await send(endpointId, { ...ORDER, id: 'ord_internal', type: 'internal' });
    const test = await send(endpointId, { ...ORDER, id: 'ord_test', type: 'test' });
    const [internalRow, testRow] = await Promise.all([settled(internal), settled(test)]);
    expect(statesOf(internalRow)).toEqual({ [emailTarget]: 'dropped', [sheetTarget]: 'delivered' });
    expect(statesOf(testRow)).toEqual({ [emailTarget]: 'delivered', [sheetTarget]: 'dropped' });
    expect([internalRow.status, testRow.status]).toEqual(['completed', 'completed']);

    expect(mailsTo(to).map((m) => m.parsed.subject)).toEqual(['Order ord_test for ada@example.com']);
    expect(google.rows(spreadsheetId)).toEqual([
      ['relay_delivery_id', 'order', 'customer', 'email', 'total', 'type'],
      [expect.stringMatching(/^dlv_/), 'ord_internal', 'Ada', 'ada@example.com', '12.50', 'internal'],
    ]);
  });
});

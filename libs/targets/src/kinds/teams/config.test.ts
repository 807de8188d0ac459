import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createTeamsKind } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const kind = createTeamsKind({ secrets: box });
const SIG = 'sIgSeCrEt0123456789abcdefABCDEF-_xyz';
const WORKFLOW = `https://prod-12.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;
const POWER = `https://default0123abcd.ef.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc123/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;
const LEGACY = `https://contoso.webhook.office.com/webhookb2/1111-2222@3333-4444/IncomingWebhook/${SIG}/5555`;

describe('Microsoft Teams target: configuration from its description', () => {
  it.each([
    ['a Logic Apps Workflows URL', WORKFLOW],
    ['a Power Automate Workflows URL', POWER],
    ['a legacy Incoming Webhook URL', LEGACY],
  ])('accepts %s, stores it sealed and shows it with the secret masked', (_n, url) => {
    const v = kind.validateConfig({ url, name: 'ops' });
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    expect(v.value.format).toBe('adaptive_card');
    expect(box.decrypt(v.value.url)).toBe(url.replace(':443', ''));
    const shown = JSON.stringify(kind.publicConfig(v.value));
    expect(shown).not.toContain(SIG);
    expect(shown).toContain(new URL(url).hostname);
  });

  it.each([
    ['config.url', { name: 'a' }],
    ['config.url', { url: 'https://example.com/workflows/x/triggers/manual/paths/invoke?sig=abc', name: 'a' }],
    ['config.url', { url: WORKFLOW.replace(/&sig=.*/, ''), name: 'a' }],
    ['config.url', { url: WORKFLOW.replace('https:', 'http:'), name: 'a' }],
    ['config.url', { url: WORKFLOW.replace(':443', ':8443'), name: 'a' }],
    ['config.url', { url: 'https://contoso.webhook.office.com/other', name: 'a' }],
    ['config.format', { url: WORKFLOW, name: 'a', format: 'message_card' }],
    ['config.name', { url: WORKFLOW }],
  ])('refuses a bad config at %s, never echoing the secret', (field, input) => {
    const v = kind.validateConfig(input);
    expect(v.ok ? [] : v.errors.map((e) => e.field)).toContain(field);
    expect(JSON.stringify(v)).not.toContain('sIgSeCrEt');
  });
});

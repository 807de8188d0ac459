import { bodyMac, prefixed } from '../recipes';
import type { PresetSpec } from '../spec';

/** Git hosting and CI providers. */
export const SOURCE_CONTROL_PRESETS = {
  github: {
    label: 'GitHub',
    docs: 'https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries',
    scheme: bodyMac('sha256', 'hex'),
    signature: { header: 'x-hub-signature-256', format: prefixed('sha256=') },
    id: { header: 'x-github-delivery' },
    // Legacy SHA-1 signature: not accepted (SHA-256 is always sent alongside), but still a MAC.
    extraCredentialHeaders: ['x-hub-signature'],
    secret: { format: 'text', where: 'Repository or organization → Settings → Webhooks → Secret (you choose it)' },
    oracle: { kind: 'sdk', name: '@octokit/webhooks-methods' },
  },
  gitlab: {
    label: 'GitLab',
    docs: 'https://docs.gitlab.com/user/project/integrations/webhooks/#validate-requests-with-a-secret-token',
    scheme: { family: 'token' },
    signature: { header: 'x-gitlab-token', format: { kind: 'plain' } },
    id: { header: 'x-gitlab-event-uuid' },
    secret: { format: 'text', where: 'Project → Settings → Webhooks → Secret token (you choose it)' },
    oracle: { kind: 'documented' },
  },
} satisfies Record<string, PresetSpec>;

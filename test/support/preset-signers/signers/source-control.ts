import type { SignerCase } from '../signer';
import { b64, hex, secs } from '../sign';

/**
 * Signers written from each provider's documentation (the docs link is in the preset's entry);
 * one line per provider, with node:crypto only.
 */
export const SOURCE_CONTROL_SIGNERS = {
  bitbucket: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  gitea: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Gitea-Signature': hex('sha256', secret, body) } }),
  },
  forgejo: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Forgejo-Signature': hex('sha256', secret, body), 'X-Gitea-Signature': hex('sha256', secret, body) },
    }),
  },
  gogs: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Gogs-Signature': hex('sha256', secret, body) } }),
  },
  jira: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  circleci: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'circleci-signature': `v1=${hex('sha256', secret, body)}` },
    }),
  },
  buildkite: {
    sign: ({ credentials: { secret }, body, at }) => ({
      headers: {
        'X-Buildkite-Signature': `timestamp=${secs(at)},signature=${hex('sha256', secret, `${secs(at)}.`, body)}`,
      },
    }),
  },
  terraform_cloud: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-TFE-Notification-Signature': hex('sha512', secret, body) },
    }),
  },
  pulumi: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'Pulumi-Webhook-Signature': hex('sha256', secret, body) },
    }),
  },
  vercel: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-vercel-signature': hex('sha1', secret, body) } }),
  },
  heroku: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'Heroku-Webhook-Hmac-SHA256': b64('sha256', secret, body) },
    }),
  },
  sentry: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'Sentry-Hook-Signature': hex('sha256', secret, body) },
    }),
  },
  launchdarkly: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-LD-Signature': hex('sha256', secret, body) } }),
  },
  pagerduty: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-PagerDuty-Signature': `v1=${hex('sha256', secret, body)}` },
    }),
  },
  cursor: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Webhook-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  websub: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha1=${hex('sha1', secret, body)}` },
    }),
  },
  hookdeck: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'x-hookdeck-signature': b64('sha256', secret, body) } }),
  },
  convoy: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-Convoy-Signature': hex('sha512', secret, body) } }),
  },
  mongodb_atlas: {
    sign: ({ credentials: { secret }, body }) => ({ headers: { 'X-MMS-Signature': b64('sha1', secret, body) } }),
  },
  optimizely: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha1=${hex('sha1', secret, body)}` },
    }),
  },
  snyk: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Hub-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  doppler: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'X-Doppler-Signature': `sha256=${hex('sha256', secret, body)}` },
    }),
  },
  expo: {
    sign: ({ credentials: { secret }, body }) => ({
      headers: { 'expo-signature': `sha1=${hex('sha1', secret, body)}` },
    }),
  },
} satisfies Record<string, SignerCase>;

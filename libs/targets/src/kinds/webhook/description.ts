import type { Fields, KindDescription } from '../../describe/field';
import { MAX_CUSTOM_HEADERS, MAX_FORWARD_NAMES, MAX_HEADER_VALUE, MAX_URL } from './config';
import {
  checkAuthHeader,
  checkBasicPart,
  checkCustomHeaderName,
  checkForwardName,
  checkHeaderSecret,
  checkHeaderValue,
  checkSigningSecret,
  checkUrl,
  dedupe,
  markSensitive,
} from './checks';
import { checkClientCertificate, checkClientKey, checkPinnedCa, checkTls } from './tls';

/** Secrets are at most 4 KB: an Authorization header value a receiver still reads. */
const MAX_SECRET = 4096;
/** A certificate chain or CA bundle of a few certificates; a 4096-bit RSA key is about 3.3 KB of PEM. */
const MAX_CERTIFICATES_PEM = 65_536;
const MAX_KEY_PEM = 16_384;

const authVariants: Array<{ value: string; label: string; fields: Fields }> = [
  { value: 'none', label: 'None', fields: {} },
  {
    value: 'bearer',
    label: 'Bearer',
    fields: {
      token: {
        type: 'string',
        label: 'Token',
        required: true,
        credential: true,
        minLength: 1,
        maxLength: MAX_SECRET,
        message: 'token is required',
        check: checkHeaderSecret('token', true),
      },
    },
  },
  {
    value: 'api_key',
    label: 'API key',
    fields: {
      header: {
        type: 'string',
        label: 'Header name',
        required: true,
        requiredMessage: 'header name is required',
        example: 'X-Api-Key',
        check: checkAuthHeader,
      },
      key: {
        type: 'string',
        label: 'Key',
        required: true,
        credential: true,
        minLength: 1,
        maxLength: MAX_SECRET,
        message: 'key is required',
        check: checkHeaderSecret('key', false),
      },
    },
  },
  {
    value: 'basic',
    label: 'Basic',
    fields: {
      username: {
        type: 'string',
        label: 'Username',
        required: true,
        minLength: 1,
        maxLength: 256,
        pattern: '^[^:]*$',
        message: 'username is required and may not contain ":"',
        check: checkBasicPart,
      },
      password: {
        type: 'string',
        label: 'Password',
        required: true,
        credential: true,
        minLength: 1,
        maxLength: MAX_SECRET,
        message: 'password is required',
        check: checkBasicPart,
      },
    },
  },
];

/** Spec "Relay target" → Webhook URL, and its destination settings table. */
export const webhookDescription: KindDescription = {
  label: 'Webhook URL',
  help: 'An HTTP(S) endpoint of yours; docs/targets-webhook.md.',
  fields: {
    url: {
      type: 'string',
      label: 'Target URL',
      required: true,
      maxLength: MAX_URL,
      example: 'https://hooks.example.com/in',
      help: 'http(s) URL; https only while Enforce HTTPS is on',
      check: checkUrl,
    },
    enforce_https: {
      type: 'boolean',
      label: 'Enforce HTTPS',
      default: true,
      help: 'when on, a target URL that is not HTTPS is rejected',
    },
    auth: {
      type: 'variant',
      label: 'Outbound authentication',
      tag: 'type',
      default: { type: 'none' },
      variants: authVariants,
    },
    custom_headers: {
      type: 'list',
      label: `Custom headers (at most ${MAX_CUSTOM_HEADERS})`,
      default: [],
      maxItems: MAX_CUSTOM_HEADERS,
      maxItemsMessage: 'at most {max} custom headers are allowed (got {got})',
      message: 'must be a list of {name, value}',
      items: {
        type: 'object',
        label: 'Header',
        required: true,
        message: 'must be an object {name, value, sensitive?}',
        fields: {
          name: {
            type: 'string',
            label: 'Name',
            required: true,
            requiredMessage: 'header name is required',
            minLength: 1,
            message: 'header name is required',
            check: checkCustomHeaderName,
          },
          value: {
            type: 'string',
            label: 'Value',
            required: true,
            credential: { when: 'sensitive' },
            maxLength: MAX_HEADER_VALUE,
            message: 'header value must be a string',
            requiredMessage: 'header value must be a string',
            help: 'may use template variables, e.g. {{originating_ip}}, {{uuid}}',
            check: checkHeaderValue,
          },
          sensitive: {
            type: 'boolean',
            label: 'Sensitive',
            help: 'stored sealed and shown as set; credential-like headers always are',
            message: 'must be true or false',
          },
        },
        check: markSensitive,
      },
    },
    forward_headers: {
      type: 'variant',
      label: 'Header forwarding',
      tag: 'mode',
      default: { mode: 'none' },
      message: 'must be {mode: "all"} | {mode: "list", names: [...]} | {mode: "none"}',
      variants: [
        { value: 'none', label: 'Forward none', fields: {} },
        { value: 'all', label: 'Forward all permitted incoming headers', fields: {} },
        {
          value: 'list',
          label: 'Forward only these',
          fields: {
            names: {
              type: 'list',
              label: 'Header names',
              help: 'A listed header the request lacks is skipped.',
              required: true,
              maxItems: MAX_FORWARD_NAMES,
              maxItemsMessage: 'at most {max} names',
              message: 'must be a list of header names',
              requiredMessage: 'must be a list of header names',
              items: {
                type: 'string',
                label: 'Header name',
                required: true,
                requiredMessage: 'header name is required',
                minLength: 1,
                message: 'header name is required',
                check: checkForwardName,
              },
              check: dedupe,
            },
          },
        },
      ],
    },
    signing: {
      type: 'object',
      label: 'Standard Webhooks signing',
      default: null,
      help: 'signs every attempt with webhook-id, webhook-timestamp and webhook-signature',
      message: 'must be {standard_webhooks: true, secret: "whsec_…"} (or omit signing)',
      fields: {
        standard_webhooks: {
          type: 'boolean',
          label: 'Standard Webhooks',
          required: true,
          const: true,
          message: 'must be true (or omit signing)',
          requiredMessage: 'must be true (or omit signing)',
        },
        secret: {
          type: 'string',
          label: 'Signing secret',
          required: true,
          credential: true,
          example: 'whsec_…',
          help: '"whsec_" + base64 of 24–64 bytes',
          message: 'must be a Standard Webhooks secret: "whsec_" + base64 of 24–64 bytes',
          requiredMessage: 'must be a Standard Webhooks secret: "whsec_" + base64 of 24–64 bytes',
          check: checkSigningSecret,
        },
      },
    },
    tls: {
      type: 'object',
      label: 'Mutual TLS',
      default: null,
      help: 'a client certificate for receivers that require one, and/or the one CA trusted for this target',
      message:
        'must be {client_certificate_pem, client_key_pem, ca_pem?} or {ca_pem} (or omit tls); docs/targets-webhook.md',
      check: checkTls,
      fields: {
        client_certificate_pem: {
          type: 'string',
          label: 'Client certificate (PEM)',
          multiline: true,
          maxLength: MAX_CERTIFICATES_PEM,
          example: '-----BEGIN CERTIFICATE-----…',
          help: 'the leaf first, then any intermediates; an expired certificate is refused',
          check: checkClientCertificate,
        },
        client_key_pem: {
          type: 'string',
          label: 'Client private key (PEM)',
          credential: true,
          multiline: true,
          maxLength: MAX_KEY_PEM,
          example: '-----BEGIN PRIVATE KEY-----…',
          help: 'unencrypted; stored sealed and never shown; must match the certificate',
          check: checkClientKey,
        },
        ca_pem: {
          type: 'string',
          label: 'Pinned CA (PEM)',
          multiline: true,
          maxLength: MAX_CERTIFICATES_PEM,
          example: '-----BEGIN CERTIFICATE-----…',
          help: "when set, only these CA certificates are trusted for the receiver's certificate",
          check: checkPinnedCa,
        },
      },
    },
  },
};

import { fieldPathProblem } from '@relay/endpoints';
import { isHeaderName } from '../kinds/webhook/headers';
import type { CheckContext, Field, ObjectField } from './field';

/*
 * A target's ordering per key (docs/ordering.md), described once like its limits and breaker: the
 * API's validation, the OpenAPI schema, `GET /v1/target-kinds` and the dashboard's form come from
 * ORDERING_FIELD. The gateway reads the key (@relay/endpoints' dot paths, as routing rules do); the
 * deliverers sequence each key's deliveries.
 */

/** The stored setting: where each event's key comes from. */
export interface OrderingSettings {
  key: { from: 'path'; path: string } | { from: 'header'; header: string };
}

const MAX_HEADER_NAME = 256;

/**
 * A key read from a payload field (a dot path) or a request header: the ordering key, and an
 * endpoint's contract event type (docs/contracts.md).
 */
export const KEY_SOURCE_FIELD: Field = {
  type: 'variant',
  label: 'Key',
  tag: 'from',
  required: true,
  message: 'must be {from: "path", path} or {from: "header", header}',
  variants: [
    {
      value: 'path',
      label: 'payload field',
      fields: {
        path: {
          type: 'string',
          label: 'Field path',
          required: true,
          maxLength: 512,
          example: 'data.id',
          help: 'dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number',
          check: (value: string, ctx: CheckContext) => {
            const problem = fieldPathProblem(value);
            if (problem !== null) ctx.fail(problem);
            return undefined;
          },
        },
      },
    },
    {
      value: 'header',
      label: 'request header',
      fields: {
        header: {
          type: 'string',
          label: 'Header name',
          required: true,
          trim: true,
          maxLength: MAX_HEADER_NAME,
          example: 'X-Order-Key',
          help: 'a header of the sender’s request; stored lower-cased',
          check: (value: string, ctx: CheckContext) =>
            isHeaderName(value) ? value.toLowerCase() : ctx.fail(`"${value.slice(0, 40)}" is not a valid header name`),
        },
      },
    },
  ],
};

export const ORDERING_FIELD: ObjectField = {
  type: 'object',
  label: 'Ordering per key',
  help: 'events with the same key are delivered one after another, in the order Relay accepted them; unset: no ordering (docs/ordering.md)',
  default: null,
  message: 'must be an object ({key}) or null for no ordering',
  fields: {
    key: KEY_SOURCE_FIELD,
  },
};

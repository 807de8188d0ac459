import { CONTRACT_LIMITS, CONTRACT_MODES } from '@relay/endpoints';
import { KEY_SOURCE_FIELD, fieldInputSchema } from '@relay/targets';
import { bool, errors, json, list, nullable, object, oneOfValues, op, pathParam, ref, str } from './kit';
import type { Schema } from './kit';

/*
 * Payload contracts (docs/contracts.md): the endpoint setting and its dry run. The handler
 * checks what JSON Schema cannot say here (schemas compile, RE2 patterns, sizes) with the
 * settings validator of @relay/endpoints and reports it with the document's problems.
 */

const contractSchema = object(
  {
    event_type: str({
      minLength: 1,
      maxLength: CONTRACT_LIMITS.maxEventTypeLength,
      description: 'the event type value the schema is for; `*`: any type no other entry names, and events without one',
    }),
    schema: str({
      maxLength: CONTRACT_LIMITS.maxSchemaBytes,
      description: `a JSON Schema (2020-12) as JSON text, at most ${CONTRACT_LIMITS.maxSchemaBytes} bytes; \`pattern\` and \`patternProperties\` use RE2 syntax`,
    }),
  },
  ['event_type', 'schema'],
);

const contracts = object(
  {
    event_type: fieldInputSchema(KEY_SOURCE_FIELD),
    mode: oneOfValues(
      CONTRACT_MODES,
      '`refuse`: a failing payload is answered 400 `contract_violation` and kept in quarantine; `mark`: accepted, its row carries `contract_violation`',
    ),
    schemas: list(contractSchema, { minItems: 1, maxItems: CONTRACT_LIMITS.maxSchemas }),
  },
  ['event_type', 'mode', 'schemas'],
  { description: 'JSON Schemas the payload is checked with, per event type (docs/contracts.md).' },
);

const endpointId = pathParam('endpointId', 'the endpoint id (`ep_…`); another account’s endpoint is not found');

export const contractSchemas: Record<string, Schema> = {
  PayloadContracts: contracts,
  ContractError: object(
    {
      path: str({ description: 'a JSON Pointer into the payload (`/` its root)' }),
      message: str({ description: 'what failed; never the value or the pattern' }),
    },
    ['path', 'message'],
  ),
  ContractValidate: object(
    {
      headers: {
        type: 'object',
        additionalProperties: str({ maxLength: 4096 }),
        maxProperties: 50,
        description: 'request headers, for an event type read from a header',
      },
      body: { description: 'the payload as the endpoint parses it (a JSON value)' },
      contracts: ref('PayloadContracts'),
    },
    ['body'],
    { description: '`contracts`: a draft to try instead of the saved setting.' },
  ),
  ContractValidation: object(
    {
      valid: bool(),
      event_type: nullable(str({ description: 'the event type read from the payload or header; null: none' })),
      schema: nullable(str({ description: 'the schema entry applied (its `event_type`); null: none applies' })),
      errors: list(ref('ContractError'), { maxItems: CONTRACT_LIMITS.maxErrors }),
      truncated: bool({ description: `more than ${CONTRACT_LIMITS.maxErrors} errors were found` }),
    },
    ['valid', 'event_type', 'schema', 'errors', 'truncated'],
  ),
};

export const contractPaths: Record<string, Schema> = {
  '/v1/endpoints/{endpointId}/validate': {
    post: op({
      operationId: 'validateEndpointPayload',
      summary: 'Check a payload against the contracts',
      description:
        'Checks a payload with the endpoint’s contracts (or the draft sent as `contracts`) as the gateway would, and says which schema applied and what failed. Nothing is delivered or recorded.',
      tags: ['Endpoints'],
      role: 'viewer',
      parameters: [endpointId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ContractValidate') } } },
      responses: {
        '200': json(ref('ContractValidation'), 'The check ran; `valid` says whether the payload passed.'),
        ...errors('NotFound'),
        '409': json(
          object({ code: { type: 'string', const: 'no_contracts' }, message: str() }, ['code', 'message']),
          '`no_contracts`: the endpoint has none and no draft was sent.',
        ),
      },
    }),
  },
};

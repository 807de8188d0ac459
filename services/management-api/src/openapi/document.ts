import { accountPaths, accountSchemas, auditSchemas } from './account-paths';
import { activityPaths, activitySchemas } from './activity-paths';
import { alertRulePaths, alertRuleSchemas } from './alert-rule-paths';
import { responses, schemas, securitySchemes } from './components';
import { contractPaths, contractSchemas } from './contract-paths';
import { endpointPaths } from './endpoint-paths';
import { endpointSchemas } from './endpoint-schemas';
import type { Schema } from './kit';
import { memberPaths, memberSchemas } from './member-paths';
import { metaPaths } from './meta-paths';
import { replayPaths, replaySchemas } from './replay-paths';
import { rerunPaths, rerunSchemas } from './rerun-paths';
import { targetKindPaths, targetKindSchemas } from './target-kind-paths';
import { targetPaths } from './target-paths';
import { targetSchemas } from './target-schemas';
import { transformationPaths, transformationSchemas } from './transformation-paths';

/**
 * The OpenAPI 3.1 document of the management API, served at `/v1/openapi.json` and rendered at
 * `/v1/docs`. It is the source of truth: request bodies and parameters are validated from it
 * (transport/operation.ts), every response the integration and end-to-end tests see is checked
 * against it (test/support/openapi-check.ts), and a test fails when express serves a route it
 * does not describe. Adding a route: its path and schemas in a file beside these, one line
 * below, and `operation('<operationId>')` in front of its handler.
 */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Schema;
  servers: Schema[];
  security: Schema[];
  tags: Schema[];
  paths: Record<string, Record<string, Schema>>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Schema>;
    securitySchemes: Record<string, Schema>;
  };
}

export function buildDocument(version: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relay management API',
      version,
      summary: 'Endpoints, targets, the activity log, usage, plans and API keys of a Relay account.',
      description:
        'Every route but the health checks and this document needs `Authorization: Bearer <api key>`; the key’s role (viewer < editor < admin < owner) decides what it may do — each operation names the least role as `x-relay-role`. Every error body is `{ code, message }`, validation errors add `errors: [{ field, message }]` with every problem at once. Guide: docs/management-api.md.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'the management API itself (PORT, default 8081)' }],
    security: [{ apiKey: [] }],
    tags: [
      {
        name: 'Endpoints',
        description: 'Endpoints, their settings, state actions and audit history (spec "Resources / Endpoint").',
      },
      { name: 'Targets', description: 'Where an endpoint delivers (spec "Outputs").' },
      {
        name: 'Transformations',
        description:
          'Code that reshapes what an endpoint or a target delivers, versioned, with a preview (docs/transformations.md).',
      },
      {
        name: 'Activity',
        description:
          'The Request activity log (spec "Activity record"), resending events and bulk retries of failed deliveries.',
      },
      { name: 'Account', description: 'Usage, plan and the account audit history.' },
      { name: 'API keys', description: 'Keys and their roles.' },
      {
        name: 'Members',
        description: 'People who sign in to the dashboard with the account’s identity provider (docs/members.md).',
      },
      {
        name: 'Alerts',
        description: 'Alert rules: what the account is told, through its own targets (docs/alerts.md).',
      },
      { name: 'Meta', description: 'Health checks and this document.' },
    ],
    paths: {
      ...endpointPaths,
      ...contractPaths,
      ...targetPaths,
      ...transformationPaths,
      ...targetKindPaths,
      ...activityPaths,
      ...replayPaths,
      ...rerunPaths,
      ...accountPaths,
      ...memberPaths,
      ...alertRulePaths,
      ...metaPaths,
    } as OpenApiDocument['paths'],
    components: {
      schemas: {
        ...schemas,
        ...endpointSchemas,
        ...contractSchemas,
        ...targetSchemas,
        ...transformationSchemas,
        ...targetKindSchemas,
        ...activitySchemas,
        ...replaySchemas,
        ...rerunSchemas,
        ...accountSchemas,
        ...memberSchemas,
        ...auditSchemas,
        ...alertRuleSchemas,
      },
      responses,
      securitySchemes,
    },
  };
}

/** The document of this build. */
export const managementApiDocument: OpenApiDocument = buildDocument('1.0.0');

import path from 'node:path';
import { writeOpenApiArtifacts } from './support/openapi-artifacts';

/** The root globalSetup of every Jest run: the OpenAPI document and its validators, built once (test/support/openapi-artifacts.ts). */
export default function setup(): void {
  process.env.RELAY_OPENAPI_DIR = writeOpenApiArtifacts(
    path.join(__dirname, '..', 'node_modules', '.cache', 'relay-openapi'),
  );
}

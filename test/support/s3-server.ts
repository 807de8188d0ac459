import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { VERSITYGW, versitygwCommand } from '../../bench/test-servers';
import { ManagedServer, discardServers } from './private-servers';
import type { PrivateServer } from './private-servers';
import { freePort } from './services';

/*
 * The S3 target's test server, private to one test file, on a free loopback port: versitygw (the
 * Versity S3 Gateway, `bash scripts/infra.sh tools` builds it) on its posix backend, objects as
 * files in a temporary directory, so that a restart keeps them. It verifies every request's SigV4
 * signature against its root key (docs/testing.md "Queue servers").
 */

export type S3Server = PrivateServer & {
  /** the server's only key, and a client signed with it */
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  close(): Promise<void>;
};

export async function startVersitygw(label: string): Promise<S3Server> {
  if (!existsSync(VERSITYGW))
    throw new Error(`${VERSITYGW} not found: run \`bash scripts/infra.sh tools\` to build it`);
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  mkdirSync(path.join(dir, 'data'));
  mkdirSync(path.join(dir, 'meta'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const accessKeyId = 'relaytest';
  const secretAccessKey = randomBytes(18).toString('base64url');
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
  const server = new ManagedServer(
    {
      name: 'versitygw',
      url,
      command: 'nice',
      args: ['-n', '19', ...versitygwCommand({ accessKeyId, secretAccessKey, port, dir })],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      handshake: async () => {
        await client.send(new ListBucketsCommand({}));
      },
    },
    path.join(dir, 'versitygw.log'),
  );
  const close = async (): Promise<void> => {
    client.destroy();
    await discardServers(dir, server);
  };
  try {
    await server.start(30_000);
  } catch (err) {
    await close();
    throw err;
  }
  return Object.assign(server as PrivateServer, { accessKeyId, secretAccessKey, client, close });
}

export async function createBucket(server: S3Server, name: string): Promise<void> {
  await server.client.send(new CreateBucketCommand({ Bucket: name }));
}

/** every key in the bucket */
export async function keysIn(server: S3Server, bucket: string): Promise<string[]> {
  const listed = await server.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

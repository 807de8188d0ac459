import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { ManagedServer, startAlone } from './private-servers';
import type { PrivateServer } from './private-servers';
import { freePort } from './services';

/** the user of a private Mosquitto who may publish and subscribe anywhere, and its password */
export const MOSQUITTO_USER = { name: 'relay', password: 'mqtt-Passw0rd' } as const;
/** a user who may only subscribe: its publishes are refused (MQTT 5 PUBACK 0x87) */
export const MOSQUITTO_READER = { name: 'reader', password: 'mqtt-Read0nly' } as const;
/** the largest packet a private Mosquitto takes; a larger one ends the connection (DISCONNECT 0x95) */
export const MOSQUITTO_MAX_PACKET_BYTES = 16_384;

export interface PrivateMosquitto extends PrivateServer {
  /** the broker's URL with `user:password@` in it (MOSQUITTO_USER unless given) */
  urlAs(user?: string, password?: string): string;
  close(): Promise<void>;
}

/** one MQTT 5 CONNECT answered with a CONNACK that accepts it */
async function mqttHandshake(url: string): Promise<void> {
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, connectTimeout: 2000, reconnectPeriod: 0 });
  await client.endAsync(true);
}

/**
 * A Mosquitto of its own (the program `bash scripts/infra.sh tools` installs) for an MQTT target's
 * tests, on a free loopback port: two users in a password file (`mosquitto_passwd`) with their
 * rights in an ACL file, no anonymous clients, packets up to MOSQUITTO_MAX_PACKET_BYTES, and persistence on, so a persistent session's QoS 1 messages survive an orderly restart
 * (`stop('SIGTERM')` writes them out). Run as the user who started it: its files live in a
 * directory only that user reads. `close()` stops it and removes the directory.
 */
export async function startPrivateMosquitto(label: string): Promise<PrivateMosquitto> {
  const which = (name: string): string =>
    spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  const program = which('mosquitto');
  const passwd = which('mosquitto_passwd');
  if (!program || !passwd) throw new Error('mosquitto not found: run `bash scripts/infra.sh tools` to install it');
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const port = await freePort();
  const passwords = path.join(dir, 'passwd');
  writeFileSync(passwords, '', { mode: 0o600 });
  for (const u of [MOSQUITTO_USER, MOSQUITTO_READER]) {
    const made = spawnSync(passwd, ['-b', passwords, u.name, u.password], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
  }
  const acl = path.join(dir, 'acl');
  writeFileSync(acl, `user ${MOSQUITTO_USER.name}\ntopic readwrite #\n\nuser ${MOSQUITTO_READER.name}\ntopic read #\n`);
  mkdirSync(path.join(dir, 'data'));
  const user = spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim();
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${passwords}`,
      `acl_file ${acl}`,
      `max_packet_size ${MOSQUITTO_MAX_PACKET_BYTES}`,
      'persistence true',
      `persistence_location ${path.join(dir, 'data')}/`,
      // Mosquitto started by root drops to the `mosquitto` user, which cannot read this directory
      `user ${user}`,
      'log_dest stdout',
      '',
    ].join('\n'),
  );
  const urlAs = (name: string = MOSQUITTO_USER.name, password: string = MOSQUITTO_USER.password): string =>
    `mqtt://${encodeURIComponent(name)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const server = new ManagedServer(
    {
      name: 'mosquitto',
      url: `mqtt://127.0.0.1:${port}`,
      command: program,
      args: ['-c', conf],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
      handshake: () => mqttHandshake(urlAs()),
    },
    path.join(dir, 'mosquitto.log'),
  );
  return Object.assign(await startAlone(server, dir), { urlAs });
}

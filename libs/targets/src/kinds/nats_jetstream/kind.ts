import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { PayloadError, TargetConfigError } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { NatsAuth, NatsLink, NatsMessage } from '../../transports/nats';
import { readPayload, renderTemplate, templateData } from '../template';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { classifyNatsPublish } from './classify';
import { natsJetStreamDescription, subjectProblem } from './config';
import type { NatsJetStreamConfig } from './config';

/**
 * On the outputs channel with the other broker kinds, and their schedule. `resendable` is
 * false as for them: a publish later than the stream's duplicate window is stored again.
 */
export const natsJetStreamInfo: KindInfo = {
  kind: 'nats_jetstream',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: natsJetStreamDescription,
  resendable: false,
};

export interface NatsJetStreamKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  nats?: NatsLink;
}

/** The message of one delivery: the same on every attempt, its `Nats-Msg-Id` the delivery id. */
export function natsMessage(config: NatsJetStreamConfig, d: DeliveryMessageV1): NatsMessage {
  const subject = renderTemplate(config.subject, templateData(readPayload(d.payload)));
  const problem = subjectProblem(subject);
  if (problem) throw new PayloadError('SUBJECT_INVALID', `the subject rendered from the payload ${problem}`);
  return {
    subject,
    body: Buffer.from(d.payload.body_base64, 'base64'),
    msgId: d.delivery_id,
    headers: {
      'Relay-Event-Id': d.event_id,
      'Relay-Endpoint-Id': d.endpoint_id,
      'Relay-Received-At': d.received_at,
      ...(d.payload.content_type ? { 'Content-Type': d.payload.content_type } : {}),
    },
  };
}

/** The stored auth with its secret opened; one no configured key opens is the configuration's problem. */
function openAuth(secrets: SecretSealer, auth: NatsAuth): NatsAuth {
  try {
    switch (auth.type) {
      case 'user_password':
        return { ...auth, password: secrets.decrypt(auth.password) };
      case 'token':
        return { ...auth, token: secrets.decrypt(auth.token) };
      case 'nkey':
        return { ...auth, seed: secrets.decrypt(auth.seed) };
      case 'creds':
        return { ...auth, creds: secrets.decrypt(auth.creds) };
      default:
        return auth;
    }
  } catch {
    throw new TargetConfigError('SECRET_UNREADABLE', 'the NATS credential cannot be opened with any configured key');
  }
}

/** Each delivery published with JetStream (docs/targets-queues.md "NATS JetStream"). */
export function createNatsJetStreamKind(deps: NatsJetStreamKindDeps): TransportKind<NatsJetStreamConfig> {
  return {
    ...natsJetStreamInfo,
    ...describedConfig<NatsJetStreamConfig>(natsJetStreamDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.nats) return { result: 'retry', status: null, error: 'this deliverer cannot reach NATS servers' };
      const message = natsMessage(config, d);
      const servers = { servers: config.servers, auth: openAuth(deps.secrets, config.auth) };
      return classifyNatsPublish(await deps.nats.publish(ownerOf(d), servers, message));
    },
  };
}

import amqp from 'amqplib';
import { BrokerConnection, ConfirmPublisher, publishAccountEvent } from '@relay/broker';
import { brokerNames, ContractError, decodeMessage } from '@relay/contracts';
import { deleteBrokerNamespace, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

const { namespace } = testNamespace('acctevt');
const names = brokerNames(namespace);
const { logger } = testLogger('account-event-test');

let broker: BrokerConnection;
let publisher: ConfirmPublisher;

beforeAll(async () => {
  broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    logger,
    connectionName: 'test',
    topology: { namespace, deliveryLimit: 5 },
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    heartbeatSeconds: 2,
  });
  await broker.start();
  publisher = new ConfirmPublisher(broker, 5000);
});

afterAll(async () => {
  await broker.close();
  await deleteBrokerNamespace(namespace);
});

describe('publishAccountEvent (real RabbitMQ)', () => {
  it('puts a confirmed, persistent relay.account-event.v1 message on the account-events queue declared by the topology', async () => {
    await publishAccountEvent(publisher, namespace, {
      kind: 'target_flagged',
      account_id: 'acc_1',
      endpoint_id: 'ep_1',
      target_id: 'tg_1',
      at: new Date().toISOString(),
      detail: { reason: 'gone' },
    });
    const conn = await amqp.connect(infra.rabbitmqUrl);
    try {
      const ch = await conn.createChannel();
      const msg = await ch.get(names.accountEventQueue, { noAck: true });
      expect(msg).not.toBe(false);
      if (!msg) return;
      expect(msg.properties.deliveryMode).toBe(2);
      expect(msg.properties.type).toBe('relay.account-event.v1');
      const event = decodeMessage(msg.content, ['relay.account-event.v1']);
      expect(event).toMatchObject({
        kind: 'target_flagged',
        account_id: 'acc_1',
        target_id: 'tg_1',
        detail: { reason: 'gone' },
      });
    } finally {
      await conn.close();
    }
  });

  it('refuses before publishing an event its consumer would reject', async () => {
    await expect(
      publishAccountEvent(publisher, namespace, {
        kind: 'nope' as never,
        account_id: 'acc_1',
        at: new Date().toISOString(),
        detail: {},
      }),
    ).rejects.toThrow(ContractError);
  });
});

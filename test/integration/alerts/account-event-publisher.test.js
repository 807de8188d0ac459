"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const amqplib_1 = __importDefault(require("amqplib"));
const broker_1 = require("@relay/broker");
const contracts_1 = require("@relay/contracts");
const infra_1 = require("../../support/infra");
const logger_1 = require("../../support/logger");
const { namespace } = (0, infra_1.testNamespace)('acctevt');
const names = (0, contracts_1.brokerNames)(namespace);
const { logger } = (0, logger_1.testLogger)('account-event-test');
let broker;
let publisher;
beforeAll(async () => {
    broker = new broker_1.BrokerConnection({ url: infra_1.infra.rabbitmqUrl, logger, connectionName: 'test', topology: { namespace, deliveryLimit: 5 }, reconnectMinMs: 50, reconnectMaxMs: 200, heartbeatSeconds: 2 });
    await broker.start();
    publisher = new broker_1.ConfirmPublisher(broker, 5000);
});
afterAll(async () => {
    await broker.close();
    await (0, infra_1.deleteBrokerNamespace)(namespace);
});
describe('publishAccountEvent (real RabbitMQ)', () => {
    it('puts a confirmed, persistent relay.account-event.v1 message on the account-events queue declared by the topology', async () => {
        await (0, broker_1.publishAccountEvent)(publisher, namespace, { kind: 'target_flagged', account_id: 'acc_1', endpoint_id: 'ep_1', target_id: 'tg_1', at: new Date().toISOString(), detail: { reason: 'gone' } });
        const conn = await amqplib_1.default.connect(infra_1.infra.rabbitmqUrl);
        try {
            const ch = await conn.createChannel();
            const msg = await ch.get(names.accountEventQueue, { noAck: true });
            expect(msg).not.toBe(false);
            if (!msg)
                return;
            expect(msg.properties.deliveryMode).toBe(2);
            expect(msg.properties.type).toBe('relay.account-event.v1');
            const event = (0, contracts_1.decodeMessage)(msg.content, ['relay.account-event.v1']);
            expect(event).toMatchObject({ kind: 'target_flagged', account_id: 'acc_1', target_id: 'tg_1', detail: { reason: 'gone' } });
        }
        finally {
            await conn.close();
        }
    });
    it('refuses before publishing an event its consumer would reject', async () => {
        await expect((0, broker_1.publishAccountEvent)(publisher, namespace, { kind: 'nope', account_id: 'acc_1', at: new Date().toISOString(), detail: {} })).rejects.toThrow(contracts_1.ContractError);
    });
});
//# sourceMappingURL=account-event-publisher.test.js.map
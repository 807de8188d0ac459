import { withHeartbeat } from './connection';

describe('withHeartbeat', () => {
  it('puts the heartbeat in the URL, where amqplib reads it', () => {
    expect(withHeartbeat('amqp://user:pw@broker:5672/vh', 10)).toBe('amqp://user:pw@broker:5672/vh?heartbeat=10');
    expect(withHeartbeat('amqp://broker?frameMax=8192', 5)).toBe('amqp://broker?frameMax=8192&heartbeat=5');
  });

  it('keeps a heartbeat the operator already set in RABBITMQ_URL', () => {
    expect(withHeartbeat('amqp://broker?heartbeat=30', 10)).toBe('amqp://broker?heartbeat=30');
  });
});

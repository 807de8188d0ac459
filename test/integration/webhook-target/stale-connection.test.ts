import { createSender } from '@relay/targets';
import type { SendOutcome } from '@relay/targets';
import { ClosingReceiver } from '../../support/closing-receiver';

const request = (url: string, resendable = true) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"n":1}'),
  resendable,
});
const statusOf = (o: SendOutcome) => ('response' in o ? o.response.status : o.error.code);

describe('stale keep-alive connections (docs/delivery.md "Stale connections")', () => {
  let receiver: ClosingReceiver;
  afterEach(() => receiver.close());

  it('a request reset on a reused connection before any answer is sent again on a new one: the delivery succeeds', async () => {
    receiver = await ClosingReceiver.start();
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    expect(statusOf(await send(request(receiver.url())))).toBe(200);
    // the kept-alive connection is reused and reset; the request goes out again on a second one
    const second = await send(request(receiver.url()));
    expect([statusOf(second), second.resends]).toEqual([200, 1]);
    expect(receiver.seen).toEqual({ connections: 2, answered: 2, resets: 1 });
  });

  it('a request that is not resendable is not sent again: the failure says it may have arrived', async () => {
    receiver = await ClosingReceiver.start();
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    expect(statusOf(await send(request(receiver.url(), false)))).toBe(200);
    const second = await send(request(receiver.url(), false));
    expect(second).toMatchObject({
      error: { code: 'RESET_UNANSWERED', message: expect.stringContaining('may have arrived') },
    });
    expect(second.resends).toBeUndefined();
    expect(receiver.seen).toEqual({ connections: 1, answered: 1, resets: 1 });
  });

  it('a reset on a new connection is a failure, sent once', async () => {
    receiver = await ClosingReceiver.start({ resetFirst: true });
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    expect(statusOf(await send(request(receiver.url())))).toBe('ECONNRESET');
    expect(receiver.seen).toEqual({ connections: 1, answered: 0, resets: 1 });
  });

  it('gives up after two more tries when every kept-alive connection it picks was closed', async () => {
    receiver = await ClosingReceiver.start();
    const send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.0/8'] });
    // three requests at once open three connections, each kept alive after its answer
    const warm = await Promise.all([1, 2, 3].map(() => send(request(receiver.url()))));
    expect(warm.map(statusOf)).toEqual([200, 200, 200]);
    // each of the three kept-alive connections is picked in turn and reset
    const last = await send(request(receiver.url()));
    expect([statusOf(last), last.resends]).toEqual(['ECONNRESET', 2]);
    expect(receiver.seen).toEqual({ connections: 3, answered: 3, resets: 3 });
  });
});

import { runTargetKindSuite } from '../../../libs/targets/src/kinds/shared-suite';
import { TestReceiver } from '../../support/receiver';
import { delivery, kind, send } from './fixtures';

// STYLE.md: every kind runs the shared delivery suite; the receiver is the local capture server.
let receiver: TestReceiver | undefined;
// read lazily by the suite: the receiver's port is known only once startReceiver has run
const receiverUrl = () => receiver?.url() ?? 'http://127.0.0.1:9/hook';

runTargetKindSuite(kind, {
  get validConfig() {
    return {
      url: receiverUrl(),
      enforce_https: false,
      auth: { type: 'bearer', token: 'suite-bearer-secret' },
      custom_headers: [{ name: 'X-Api-Token', value: 'suite-header-secret' }],
    };
  },
  invalidConfigs: [
    { input: { url: 'http://example.com/' }, field: 'config.url' },
    {
      input: { url: 'https://example.com/', custom_headers: [{ name: 'Host', value: 'x' }] },
      field: 'config.custom_headers[0].name',
    },
    {
      input: {
        url: 'https://example.com/',
        auth: { type: 'bearer', token: 't' },
        custom_headers: [{ name: 'Authorization', value: 'x' }],
      },
      field: 'config.custom_headers[0].name',
    },
  ],
  delivery: delivery(),
  secrets: ['suite-bearer-secret', 'suite-header-secret'],
  startReceiver: async () => {
    receiver = await TestReceiver.start();
    const r = receiver;
    return {
      send,
      received: () => r.requests.map((q) => ({ method: q.method, path: q.url, body: q.body })),
      close: () => r.close(),
    };
  },
});

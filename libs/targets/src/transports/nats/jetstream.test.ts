import { JetStreamApiError } from '@nats-io/jetstream';
import { errors } from '@nats-io/transport-node';
import { natsErrorCode } from './jetstream';

const apiError = (err_code: number, code: number, description: string) =>
  new JetStreamApiError({ err_code, code, description });

describe('the code of a NATS client error, as the classification reads it', () => {
  it.each([
    [
      'a JetStream API error: its error code and status',
      apiError(10077, 503, 'maximum messages exceeded'),
      { code: 'JS_10077', status: 503 },
    ],
    [
      'an authorization violation',
      new errors.AuthorizationError('Authorization Violation'),
      { code: 'AUTHORIZATION_VIOLATION' },
    ],
    [
      'expired credentials',
      new errors.UserAuthenticationExpiredError('User Authentication Expired'),
      { code: 'AUTHENTICATION_EXPIRED' },
    ],
    [
      'a permissions violation wrapped in the request’s error',
      new errors.RequestError('Permissions Violation', {
        cause: new errors.PermissionViolationError('Permissions Violation for Publish to "x"', 'publish', 'x'),
      }),
      { code: 'PERMISSIONS_VIOLATION' },
    ],
    [
      'no responders, which the client reports as JetStream not enabled',
      new Error('jetstream is not enabled', {
        cause: new errors.RequestError('no responders', { cause: new errors.NoRespondersError('x') }),
      }),
      { code: 'NO_RESPONDERS' },
    ],
    ['a timeout', new errors.TimeoutError(), { code: 'ETIMEDOUT' }],
    ['a closed connection', new errors.ClosedConnectionError(), { code: 'ECONNCLOSED' }],
    [
      'a refused socket under the connection error',
      new errors.ConnectionError('connection refused', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      }),
      { code: 'ECONNREFUSED' },
    ],
    [
      'a tls:// server without TLS',
      new errors.ConnectionError("server does not support 'tls'"),
      { code: 'TLS_UNAVAILABLE' },
    ],
    [
      'a message over max_payload',
      errors.InvalidArgumentError.format('payload', 'max_payload size exceeded'),
      { code: 'MAX_PAYLOAD' },
    ],
    ['anything else', new Error('?'), { code: 'ENATS' }],
  ])('%s', (_what, err, expected) => {
    expect(natsErrorCode(err)).toEqual(expected);
  });
});

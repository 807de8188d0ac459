import { testRequestPath } from '@relay/contracts';
import type { TestRequestAnswer, TestRequestEnvelope } from '@relay/contracts';
import type { InternalSigner } from '@relay/secrets';

/** No gateway answered the test request (unreachable, timed out, refused the signature). */
export class GatewayUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'GatewayUnavailableError';
  }
}

export interface TestRequestGateway {
  run(envelope: TestRequestEnvelope): Promise<TestRequestAnswer>;
}

/**
 * Runs test requests through a gateway's own pipeline: a signed POST to its internal route on
 * HEALTH_PORT (GATEWAY_INTERNAL_URL; ingest-gateway transport/test-request-route.ts). One copy
 * of the spec's steps, in the gateway; nothing here re-implements them.
 */
export function createGatewayClient(opts: {
  baseUrl: string;
  signer: InternalSigner;
  timeoutMs: number;
}): TestRequestGateway {
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    async run(envelope) {
      const body = Buffer.from(JSON.stringify(envelope));
      let res: Response;
      try {
        res = await fetch(`${base}${testRequestPath(envelope.endpoint_id)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-relay-signature': opts.signer.sign(body) },
          body,
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        throw new GatewayUnavailableError(`gateway not reached: ${(err as Error).message}`, err);
      }
      const text = await res.text().catch(() => '');
      if (res.status !== 200)
        throw new GatewayUnavailableError(`gateway answered ${res.status}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as TestRequestAnswer;
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DeliveryMessageV1 } from '@relay/contracts';
import type { OutboundRequest, SendOutcome, TargetKind } from '../kind';

/*
 * The delivery suite every target kind must pass (STYLE.md "Shared suites every
 * implementation must pass"). A kind's test calls `runTargetKindSuite(kind, fixtures)` once;
 * the kind-specific rules (mapping, platform error codes) stay in the kind's own tests.
 * Test-only: imported by *.test.ts files, never by the lib's entry point.
 */

/** A request a receiver got, as the suite checks it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  body: Buffer;
}

/** A local server standing in for the destination (a capture server, a fake chat platform). */
export interface SuiteReceiver {
  /** sends an attempt to this receiver (a fake platform rewrites the real host to itself) */
  send(req: OutboundRequest): Promise<SendOutcome>;
  /** every request received so far, in order */
  received(): readonly ReceivedRequest[];
  close(): Promise<void>;
}

export interface TargetKindSuiteFixtures {
  /** a config `validateConfig` accepts; its URL is what `receiver.send` expects */
  validConfig: unknown;
  /** configs it must refuse, each with the field path the error must name */
  invalidConfigs: ReadonlyArray<{ input: unknown; field: string }>;
  /** a delivery the receiver accepts once mapped by the kind */
  delivery: DeliveryMessageV1;
  /** substrings of validConfig that must never appear in the stored config, publicConfig or attempt errors */
  secrets: readonly string[];
  startReceiver(): Promise<SuiteReceiver>;
}

function response(status: number, headers: Record<string, string> = {}, body = ''): SendOutcome {
  return { response: { status, headers, body }, durationMs: 1 };
}

export function runTargetKindSuite(kind: TargetKind, fixtures: TargetKindSuiteFixtures): void {
  if (fixtures.invalidConfigs.length === 0 || fixtures.secrets.length === 0) {
    throw new Error(`${kind.kind}: the shared suite needs at least one invalid config and one secret`);
  }
  describe(`${kind.kind}: shared delivery suite`, () => {
    let receiver: SuiteReceiver;
    beforeAll(async () => {
      receiver = await fixtures.startReceiver();
    });
    afterAll(async () => {
      await receiver.close();
    });

    const config = (): unknown => {
      const v = kind.validateConfig(fixtures.validConfig);
      if (!v.ok) throw new Error(`validConfig was refused: ${JSON.stringify(v.errors)}`);
      return v.value;
    };

    it('accepts the valid config', () => {
      expect(kind.validateConfig(fixtures.validConfig).ok).toBe(true);
    });

    it.each(fixtures.invalidConfigs.map((c) => [c.field, c.input] as const))(
      'refuses an invalid config with an error naming %s',
      (field, input) => {
        const v = kind.validateConfig(input);
        expect(v.ok).toBe(false);
        if (v.ok) return;
        expect(v.errors.map((e) => e.field)).toContain(field);
        for (const e of v.errors) expect(e.message.length).toBeGreaterThan(0);
      },
    );

    it('the config it stores never holds a secret part in plaintext (credentials are sealed at rest)', () => {
      const stored = JSON.stringify(config());
      for (const secret of fixtures.secrets) expect(stored).not.toContain(secret);
    });

    it('publicConfig never contains the secret part', () => {
      const shown = JSON.stringify(kind.publicConfig(config()));
      for (const secret of fixtures.secrets) expect(shown).not.toContain(secret);
    });

    it('buildRequest produces a POST whose body the receiver accepts (classified success)', async () => {
      const before = receiver.received().length;
      const outcome = await receiver.send(kind.buildRequest(config(), fixtures.delivery));
      expect(kind.classify(outcome)).toMatchObject({ result: 'success' });
      const got = receiver.received().slice(before);
      expect(got).toHaveLength(1);
      expect(got[0]!.method).toBe('POST');
    });

    it('classify: 2xx → success', () => {
      expect(kind.classify(response(200))).toEqual({ result: 'success', status: 200 });
      expect(kind.classify(response(204))).toEqual({ result: 'success', status: 204 });
    });

    it('classify: 5xx → retry', () => {
      for (const status of [500, 502, 503])
        expect(kind.classify(response(status, {}, 'upstream failed'))).toMatchObject({ result: 'retry', status });
    });

    it('classify: network error → retry, and the error never carries a secret', () => {
      const url = kind.buildRequest(config(), fixtures.delivery).url;
      const result = kind.classify({
        error: { code: 'ECONNREFUSED', message: `request to ${url} failed` },
        durationMs: 1,
      });
      expect(result).toMatchObject({ result: 'retry', status: null });
      for (const secret of fixtures.secrets) expect(JSON.stringify(result)).not.toContain(secret);
    });

    it('classify: an SSRF refusal or an untrusted certificate is permanent and flags the target; an expired one retries', () => {
      for (const code of ['SSRF_BLOCKED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
        expect(kind.classify({ error: { code, message: 'refused' }, durationMs: 1 })).toMatchObject({
          result: 'permanent',
          status: null,
          flagTarget: true,
        });
      }
      expect(
        kind.classify({ error: { code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }, durationMs: 1 }),
      ).toMatchObject({ result: 'retry', status: null });
    });

    it('classify: 429 with Retry-After: 7 → retry after 7000 ms', () => {
      expect(kind.classify(response(429, { 'retry-after': '7' }))).toMatchObject({
        result: 'retry',
        status: 429,
        retryAfterMs: 7000,
      });
    });

    it('buildRequest does not depend on call order (same delivery → same request)', () => {
      const c = config();
      const a = kind.buildRequest(c, fixtures.delivery);
      const b = kind.buildRequest(c, fixtures.delivery);
      expect(b.url).toBe(a.url);
      expect(b.body.equals(a.body)).toBe(true);
    });
  });
}

"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const ioredis_1 = require("ioredis");
const deliverer_1 = require("@relay/deliverer");
const targets_1 = require("@relay/targets");
const infra_1 = require("../../support/infra");
/*
 * The limiter and breaker state machines as they run: the Lua scripts on the real Redis
 * (docs/delivery-limits.md). Counts and states are asserted, never how long something took.
 */
const { namespace } = (0, infra_1.testNamespace)('tgate');
const redis = new ioredis_1.Redis(infra_1.infra.redisUrl);
const gate = new deliverer_1.BreakerRedis(redis, namespace);
const FAST = { ...targets_1.BREAKER_DEFAULTS, min_attempts: 10, failure_rate_pct: 50, window_s: 60, cool_down_s: 1 };
let n = 0;
const tg = () => `tg_${++n}_${Date.now()}`;
afterAll(async () => {
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length)
        await redis.del(...keys);
    redis.disconnect();
});
describe('limiter: rate and in-flight, shared by every caller', () => {
    it('a rate of 10 a second lets exactly 10 of 30 through; the held ones are told to wait one interval apart', async () => {
        const id = tg();
        const answers = await Promise.all(Array.from({ length: 30 }, () => gate.gate(id, { rate: 10, windowMs: 1000, maxInFlight: null }, targets_1.BREAKER_DEFAULTS, 5000)));
        expect(answers.filter((a) => a.verdict === 'go')).toHaveLength(10);
        const held = answers.flatMap((a) => (a.verdict === 'hold' ? [a] : []));
        expect(held).toHaveLength(20);
        expect(new Set(held.map((a) => a.reason))).toEqual(new Set(['rate']));
        // spread: the last waiter waits about 19 intervals (100 ms each) longer than the first
        const waits = held.map((a) => a.waitMs).sort((a, b) => a - b);
        expect(waits[19] - waits[0]).toBeGreaterThanOrEqual(1800);
        expect(await redis.zcard((0, deliverer_1.gateKeys)(namespace, id).rate)).toBe(10);
    });
    it('at most 2 in flight: a third waits until a lease is given back, or until one expires', async () => {
        const id = tg();
        const limits = { rate: null, windowMs: 1000, maxInFlight: 2 };
        const a = await gate.gate(id, limits, targets_1.BREAKER_DEFAULTS, 60_000);
        const b = await gate.gate(id, limits, targets_1.BREAKER_DEFAULTS, 300);
        expect([a.verdict, b.verdict]).toEqual(['go', 'go']);
        expect(await gate.gate(id, limits, targets_1.BREAKER_DEFAULTS, 60_000)).toMatchObject({ verdict: 'hold', reason: 'in_flight' });
        if (a.verdict === 'hold')
            throw new Error('unreachable');
        await gate.report(id, { ok: 1, failed: 0 }, [a.lease], targets_1.BREAKER_DEFAULTS);
        expect((await gate.gate(id, limits, targets_1.BREAKER_DEFAULTS, 60_000)).verdict).toBe('go');
        // b's lease (300 ms) expires by itself: a SIGKILLed deliverer does not hold its slot for ever
        await (0, infra_1.eventually)(async () => (await gate.gate(id, limits, targets_1.BREAKER_DEFAULTS, 60_000)).verdict === 'go', 5000, 'the expired lease to free its slot');
    });
    it('every key of one target is in one cluster hash slot', () => {
        const k = (0, deliverer_1.gateKeys)(namespace, 'tg_x');
        const tags = Object.values(k).map((key) => /\{([^}]+)\}/.exec(key)?.[1]);
        expect(new Set(tags)).toEqual(new Set(['tg_x']));
    });
});
describe('breaker: closed → open → half-open → closed or open again; paused by hand', () => {
    it('opens when the window’s failure rate crosses the threshold — one caller wins the transition', async () => {
        const id = tg();
        expect((await gate.report(id, { ok: 5, failed: 4 }, [], FAST)).view.state).toBe('closed'); // 9 < min_attempts
        const reports = await Promise.all([gate.report(id, { ok: 0, failed: 1 }, [], FAST), gate.report(id, { ok: 0, failed: 1 }, [], FAST)]);
        expect(reports.filter((r) => r.won)).toHaveLength(1);
        expect(reports.map((r) => r.view.state)).toEqual(['open', 'open']);
        expect(reports[0].view.reason).toMatch(/^\d+ of \d+ attempts failed in 60 s$/);
    });
    it('a mostly healthy target stays closed', async () => {
        const id = tg();
        for (let i = 0; i < 5; i++)
            expect((await gate.report(id, { ok: 8, failed: 2 }, [], FAST)).view.state).toBe('closed');
    });
    it('while open deliveries are held; after the cool-down exactly one probe goes; its failure opens it again, its success closes it', async () => {
        const id = tg();
        await gate.report(id, { ok: 0, failed: 10 }, [], FAST);
        const held = await gate.gate(id, null, FAST, 5000);
        expect(held).toMatchObject({ verdict: 'hold', reason: 'open' });
        expect(held.verdict === 'hold' && held.waitMs).toBeLessThanOrEqual(1000);
        const probe = await (0, infra_1.eventually)(async () => {
            const answers = await Promise.all(Array.from({ length: 5 }, () => gate.gate(id, null, FAST, 5000)));
            const probes = answers.filter((a) => a.verdict === 'probe');
            if (probes.length === 0)
                return undefined;
            expect(probes).toHaveLength(1);
            expect(probes[0].won).toBe(true);
            expect(answers.filter((a) => a.verdict === 'hold').map((a) => a.verdict === 'hold' && a.reason)).toEqual(['half_open', 'half_open', 'half_open', 'half_open']);
            return probes[0];
        }, 5000, 'a probe after the cool-down');
        if (probe.verdict !== 'probe')
            throw new Error('unreachable');
        const failed = await gate.probed(id, probe.lease, false, 'HTTP 500');
        expect(failed).toMatchObject({ won: true, view: { state: 'open', reason: 'probe failed: HTTP 500' } });
        const second = await (0, infra_1.eventually)(async () => {
            const a = await gate.gate(id, null, FAST, 5000);
            return a.verdict === 'probe' ? a : undefined;
        }, 5000, 'the second probe');
        if (second.verdict !== 'probe')
            throw new Error('unreachable');
        expect(await gate.probed(id, second.lease, true, '')).toMatchObject({ won: true, view: { state: 'closed', reason: 'probe succeeded' } });
        expect((await gate.gate(id, null, FAST, 5000)).verdict).toBe('go');
    });
    it('a probe that sent nothing only lets the lock go: the next delivery probes', async () => {
        const id = tg();
        await gate.report(id, { ok: 0, failed: 10 }, [], FAST);
        const probe = await (0, infra_1.eventually)(async () => {
            const a = await gate.gate(id, null, FAST, 5000);
            return a.verdict === 'probe' ? a : undefined;
        }, 5000, 'a probe');
        if (probe.verdict !== 'probe')
            throw new Error('unreachable');
        expect(await gate.probed(id, probe.lease, null, '')).toMatchObject({ won: false, view: { state: 'half_open' } });
        expect((await gate.gate(id, null, FAST, 5000)).verdict).toBe('probe');
    });
    it('open longer than flag-after: exactly one caller is told to flag', async () => {
        const id = tg();
        const settings = { ...FAST, cool_down_s: 3600, flag_after_open_s: 1 };
        await gate.report(id, { ok: 0, failed: 10 }, [], settings);
        expect((await gate.gate(id, null, settings, 5000)).flag).toBe(false);
        const flagged = await (0, infra_1.eventually)(async () => {
            const answers = await Promise.all(Array.from({ length: 4 }, () => gate.gate(id, null, settings, 5000)));
            return answers.some((a) => a.flag) ? answers : undefined;
        }, 5000, 'the flag');
        expect(flagged.filter((a) => a.flag)).toHaveLength(1);
        expect((await gate.gate(id, null, settings, 5000)).flag).toBe(false);
    });
    it('paused by hand: everything held whatever the limits; resumed: closed with an empty window', async () => {
        const id = tg();
        await gate.report(id, { ok: 0, failed: 9 }, [], FAST);
        expect(await gate.setByHand(id, 'paused', 'paused by ab12')).toMatchObject({ won: true, view: { state: 'paused', reason: 'paused by ab12' } });
        expect((await gate.setByHand(id, 'paused', 'again')).won).toBe(false);
        expect(await gate.gate(id, null, FAST, 5000)).toMatchObject({ verdict: 'hold', reason: 'paused', waitMs: 60_000 });
        expect((await gate.report(id, { ok: 0, failed: 50 }, [], FAST)).view.state).toBe('paused');
        expect(await gate.setByHand(id, 'closed', 'resumed by ab12')).toMatchObject({ won: true, view: { state: 'closed' } });
        // the 9 failures before the pause are gone: one more does not open it
        expect((await gate.report(id, { ok: 0, failed: 1 }, [], FAST)).view.state).toBe('closed');
        expect((await gate.read(id)).state).toBe('closed');
    });
});
//# sourceMappingURL=target-gate.test.js.map
import { randomInt } from 'node:crypto';

/**
 * A seeded generator (mulberry32), so a failing run can be repeated exactly: the suite prints
 * its seed, and `HOSTILE_SEED=<seed>` replays the same requests in the same order.
 */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A seed from HOSTILE_SEED, or a fresh random one. */
  static seedFrom(env: NodeJS.ProcessEnv): number {
    const given = env.HOSTILE_SEED;
    if (given !== undefined && given !== '') {
      const n = Number(given);
      if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
        throw new Error(`HOSTILE_SEED must be an integer 0..2^32-1, got ${given}`);
      return n;
    }
    return randomInt(0, 0xffffffff);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `n` random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /** A string of `n` characters drawn from `alphabet`. */
  chars(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}

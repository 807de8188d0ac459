/** What one run of a transformation may use; every run gets all of them (docs/transformations.md "Limits"). */
export interface SandboxLimits {
  /** wall-clock budget of one call, compile and result included; the interrupt handler stops it */
  timeMs: number;
  /** heap of one tenant's runtime (QuickJS counts every allocation against it) */
  memoryBytes: number;
  /** native stack of one call: deep recursion stops with a RangeError-like InternalError */
  stackBytes: number;
  /** longest JSON the result may serialise to */
  outputBytes: number;
  /** console.log lines kept per call, and characters per line */
  logLines: number;
  logLineChars: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeMs: 200,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  outputBytes: 1024 * 1024,
  logLines: 50,
  logLineChars: 500,
};

/** Longest transformation source accepted when it is saved. */
export const MAX_CODE_CHARS = 64 * 1024;

/**
 * What one account may use of a sandbox thread over time (docs/transformations.md "Limits"): a
 * bucket of sandbox ms that fills at `fraction` of the time passing, up to `burstMs`, and that
 * each call's time is taken from when it ends.
 */
export interface ThreadShare {
  fraction: number;
  /** what an account that was idle may use at once: its share of one second */
  burstMs: number;
}

export const THREAD_SHARE: ThreadShare = { fraction: 0.25, burstMs: 250 };

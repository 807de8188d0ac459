import { QuickJSFFI } from '@jitl/quickjs-wasmfile-release-sync/ffi';
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core';
// lru-cache itself, the package @relay/cache re-exports: the sandbox thread loads nothing else of
// that library (its Redis and metrics modules cost a thread about 0.2 s of CPU to start)
import { LRUCache } from 'lru-cache';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { DEFAULT_LIMITS } from './limits';
import type { SandboxLimits } from './limits';

/** The file name a transformation's stack frames carry; its line numbers are the source's own. */
export const SOURCE_NAME = 'transformation.js';

/**
 * Why a run produced no value. `line` is the source line of the throw when the stack names one.
 * `over_share`: not run, the runner refused it (its account's share of the thread is used up).
 */
export type RunFailureKind = 'compile' | 'threw' | 'timeout' | 'memory' | 'not_a_function' | 'over_share';
export interface RunFailure {
  kind: RunFailureKind;
  message: string;
  line: number | null;
}

/** What a run came to: the result as JSON text (parsed by the caller), the captured console lines and the time used. */
export type RunResult = { logs: string[]; durationMs: number } & Outcome;
type Outcome = { ok: true; json: string | undefined } | { ok: false; failure: RunFailure };

/**
 * One call's arguments: their array as JSON text, and the first argument's `body` apart when it
 * is a payload's text (the sandbox reads a JSON payload's text itself, so the host neither parses
 * nor writes it again).
 */
export interface CallArgs {
  json: string;
  /** becomes the first argument's `body`: parsed when `json` and the text is JSON, else the text (which holds no NUL: the engine takes C strings) */
  body?: { text: string; json: boolean };
}

/*
 * The release build of QuickJS with synchronous calls (no asyncify: smaller and faster; nothing
 * inside awaits the host). The package's own variant loads its Emscripten module with import(),
 * which CommonJS under a test runner cannot do; required directly, it loads the same files.
 */
const RELEASE_SYNC: QuickJSSyncVariant = {
  type: 'sync',
  importFFI: () => Promise.resolve(QuickJSFFI),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  importModuleLoader: () => Promise.resolve(require('@jitl/quickjs-wasmfile-release-sync/emscripten-module')),
};

interface TenantRuntime {
  runtime: QuickJSRuntime;
  /** performance.now() past which the interrupt handler stops the running code */
  deadline: number;
  /** the tenant's context, its built-ins frozen; made on the tenant's first call, reused after */
  scope: Scope | null;
}

/** A frozen context and what every call in it needs. */
interface Scope {
  ctx: QuickJSContext;
  /** the prelude's `invoke(fn, argsJson, body, bodyIsJson)`: the call and its result's JSON text inside the engine */
  invoke: QuickJSHandle;
  /** the prelude's `seal(fn, source)`: freezes the function; true when it may be reused (below) */
  seal: QuickJSHandle;
  /** the tenant's functions compiled once, by source; one pushed out is disposed of */
  functions: LRUCache<string, QuickJSHandle>;
  /** where the console writes: the running call's lines */
  logs: string[];
  dispose(): void;
}

/** Runtimes kept, least recently used dropped first: one per tenant that ran recently. */
const MAX_RUNTIMES = 256;
/** Compiled functions kept per tenant (its endpoints' and targets' current versions, mostly). */
const MAX_FUNCTIONS = 16;

/*
 * Run once in each tenant's context before any user code. It installs the console (lines
 * formatted and cut inside, so a huge value never crosses into the host), removes what a
 * transformation has no use for and what could carry work from one call into the next
 * (shared memory, weak references and finalizers), then freezes every built-in reachable from
 * the global object or from syntax, and the global object itself: the context is reused by the
 * tenant's calls, and a frozen one keeps nothing a call changes.
 *
 * Freezing a prototype makes an ordinary assignment of one of its property names to an object
 * that inherits it fail in strict code (`this.name = ...` in an Error subclass, `o.toString =
 * ...`, `out[key] = v` for a payload key called `constructor`). Those names are kept assignable
 * on inheriting objects: they become accessors whose setter defines the property on the object
 * assigned to, and refuses the built-in itself.
 */
const PRELUDE = `(sink, maxChars) => {
  'use strict';
  const fmt = (v) => {
    let s;
    try { s = typeof v === 'string' ? v : JSON.stringify(v); } catch (e) { s = String(v); }
    if (s === undefined) s = String(v);
    return s.length > maxChars ? s.slice(0, maxChars) + '…' : s;
  };
  const log = (...args) => { sink(args.map(fmt).join(' ').slice(0, maxChars)); };
  globalThis.console = { log, info: log, warn: log, error: log, debug: log };
  for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly', 'WeakRef', 'FinalizationRegistry']) delete globalThis[name];

  const { getPrototypeOf, getOwnPropertyDescriptor, defineProperty, freeze } = Object;
  const sourceOf = Function.prototype.toString;
  const roots = [
    globalThis,
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(new Map().entries()),
    getPrototypeOf(new Set().values()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf(/a/[Symbol.matchAll]('')),
    getPrototypeOf(Int8Array),
    getOwnPropertyDescriptor(function () { return arguments; }(), 'callee').get,
  ];
  const assignable = (proto, key) => {
    const d = getOwnPropertyDescriptor(proto, key);
    if (!d || !('value' in d) || !d.writable || !d.configurable) return;
    const value = d.value;
    defineProperty(proto, key, {
      get() { return value; },
      set(v) {
        if (this === proto) throw new TypeError('the built-in ' + String(key) + ' is read-only');
        defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable,
      configurable: false,
    });
  };
  for (const key of Reflect.ownKeys(Object.prototype)) assignable(Object.prototype, key);
  const reachable = () => {
    const seen = new Set();
    const walk = (o) => {
      if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
      seen.add(o);
      walk(getPrototypeOf(o));
      for (const key of Reflect.ownKeys(o)) {
        const d = getOwnPropertyDescriptor(o, key);
        if ('value' in d) walk(d.value);
        else { walk(d.get); walk(d.set); }
      }
    };
    for (const root of roots) walk(root);
    return seen;
  };
  for (const o of reachable())
    if (typeof o === 'function' && o.prototype && o.prototype !== o)
      for (const key of ['constructor', 'toString', 'valueOf', 'toLocaleString', 'name', 'message']) assignable(o.prototype, key);
  // walked again: the accessors just made are built-ins too
  for (const o of reachable()) freeze(o);

  // one crossing per call: the arguments in as JSON text (the request's body apart, as the
  // payload's text), the result out as JSON text (or a promise of it), through the built-ins as
  // they were before any user code ran
  const { parse, stringify } = JSON;
  const bodyOf = (text, json) => {
    if (!json) return text;
    try {
      return parse(text);
    } catch (e) {
      // not JSON: the text; nested deeper than the engine's stack: the call fails, as the host's JSON would
      if (e instanceof SyntaxError && e.message !== 'stack overflow') return text;
      throw e;
    }
  };
  const settled = (v) => stringify(v);
  const invoke = (fn, argsJson, body, bodyIsJson) => {
    const args = parse(argsJson);
    if (body !== undefined) args[0].body = bodyOf(body, bodyIsJson);
    const out = fn(...args);
    const thenable = (typeof out === 'object' && out !== null) || typeof out === 'function';
    return thenable && typeof out.then === 'function' ? Promise.resolve(out).then(settled) : stringify(out);
  };
  // The function is frozen (and its prototype), so it carries nothing from one call to the next.
  // When its own source text is the whole code, evaluating the code did nothing but make it: it
  // closes over the frozen global scope only, and the same function may serve the next call.
  // Code that computed its function (an IIFE keeping a counter) is evaluated for every call.
  const seal = (fn, source) => {
    freeze(fn);
    const proto = fn.prototype;
    if ((typeof proto === 'object' && proto !== null) || typeof proto === 'function') freeze(proto);
    return sourceOf.call(fn) === source;
  };
  return freeze({ invoke: freeze(invoke), seal: freeze(seal) });
}`;

/**
 * Runs transformations in QuickJS compiled to WebAssembly: the code sees a JavaScript engine
 * with the language's built-ins and nothing of the host (no process, require, modules, timers,
 * network or files exist inside it). Each tenant has a runtime of its own (its heap, memory limit
 * and interrupt handler) and one context in it whose built-ins and global object are frozen, so
 * the tenant's calls reuse it and nothing one call changes reaches the next; the code's function
 * is frozen too, and reused only when evaluating the code made nothing else (functionOf). A run
 * stopped by its time or memory budget disposes of the tenant's runtime.
 * docs/decisions/0020-transformation-sandbox.md says why.
 */
export class Sandbox {
  private readonly runtimes = new Map<string, TenantRuntime>();

  private constructor(
    private readonly module: QuickJSWASMModule,
    readonly limits: SandboxLimits,
  ) {}

  /** Loads the WebAssembly module (once per process; about 30 ms). */
  static async load(limits: Partial<SandboxLimits> = {}): Promise<Sandbox> {
    return new Sandbox(await newQuickJSWASMModuleFromVariant(RELEASE_SYNC), { ...DEFAULT_LIMITS, ...limits });
  }

  /** Calls `code` (a function expression) with `args` (plain JSON values); never throws for what the code does. */
  run(tenant: string, code: string, args: readonly unknown[]): RunResult {
    return this.call(tenant, code, { json: JSON.stringify(args) });
  }

  /** The same, the arguments as text (what the runner's thread receives). */
  call(tenant: string, code: string, args: CallArgs): RunResult {
    if (this.broken)
      return {
        ok: false,
        failure: { kind: 'threw', message: 'the sandbox stopped', line: null },
        logs: [],
        durationMs: 0,
      };
    const tenantRuntime = this.runtimeOf(tenant);
    // the budget is the code's: a new tenant's runtime and context are not charged to it
    let scope: Scope;
    try {
      scope = tenantRuntime.scope ??= this.scopeOf(tenantRuntime.runtime);
    } catch (err) {
      this.drop(tenant);
      const message = `the sandbox could not start: ${(err as Error).message}`;
      return { ok: false, failure: { kind: 'threw', message, line: null }, logs: [], durationMs: 0 };
    }
    const logs: string[] = [];
    scope.logs = logs;
    const started = performance.now();
    const deadline = started + this.limits.timeMs;
    tenantRuntime.deadline = deadline;
    let outcome = this.invoke(scope, code, args);
    if (!outcome.ok && outcome.failure.kind !== 'memory' && performance.now() > deadline)
      outcome = { ok: false, failure: { ...outcome.failure, kind: 'timeout' } };
    // a runtime stopped mid-allocation or mid-loop is not trusted again: the tenant's next call gets a new one
    if (!outcome.ok && (outcome.failure.kind === 'memory' || outcome.failure.kind === 'timeout')) this.drop(tenant);
    return { ...outcome, logs, durationMs: performance.now() - started };
  }

  /** Disposes of every runtime (the process is closing). */
  close(): void {
    for (const tenant of [...this.runtimes.keys()]) this.drop(tenant);
  }

  /** A new context with the prelude run in it: the console installed, the built-ins frozen. */
  private scopeOf(runtime: QuickJSRuntime): Scope {
    const ctx = runtime.newContext();
    const handles: QuickJSHandle[] = [];
    const keep = (h: QuickJSHandle): QuickJSHandle => (handles.push(h), h);
    const functions = new LRUCache<string, QuickJSHandle>({
      max: MAX_FUNCTIONS,
      dispose: (h) => h.alive && h.dispose(),
    });
    const dispose = (): void => {
      functions.clear();
      for (const h of handles.reverse()) if (h.alive) h.dispose();
      ctx.dispose();
    };
    try {
      const scope: Scope = { ctx, invoke: ctx.undefined, seal: ctx.undefined, functions, logs: [], dispose };
      const sink = keep(
        ctx.newFunction('log', (line) => {
          if (scope.logs.length < this.limits.logLines) scope.logs.push(ctx.getString(line));
        }),
      );
      const prelude = keep(ctx.unwrapResult(ctx.evalCode(PRELUDE, 'prelude.js')));
      const limit = keep(ctx.newNumber(this.limits.logLineChars));
      const api = keep(ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, sink, limit)));
      scope.invoke = keep(ctx.getProp(api, 'invoke'));
      scope.seal = keep(ctx.getProp(api, 'seal'));
      return scope;
    } catch (err) {
      dispose();
      throw err;
    }
  }

  private invoke(scope: Scope, code: string, args: CallArgs): Outcome {
    const { ctx } = scope;
    const handles: QuickJSHandle[] = [];
    const keep = (h: QuickJSHandle): QuickJSHandle => (handles.push(h), h);
    try {
      const fn = this.functionOf(scope, code, keep);
      if ('failure' in fn) return { ok: false, failure: fn.failure };
      const called = ctx.callFunction(
        scope.invoke,
        ctx.undefined,
        fn.handle,
        keep(ctx.newString(args.json)),
        args.body ? keep(ctx.newString(args.body.text)) : ctx.undefined,
        args.body?.json ? ctx.true : ctx.false,
      );
      if (called.error) return { ok: false, failure: this.failureOf(ctx, keep(called.error), 'threw') };
      const out = keep(called.value);
      const type = ctx.typeof(out);
      if (type === 'string') return { ok: true, json: ctx.getString(out) };
      if (type !== 'object') return { ok: true, json: undefined };
      const settled = this.settle(ctx, out);
      if ('failure' in settled) return { ok: false, failure: settled.failure };
      const text = keep(settled.value);
      return { ok: true, json: ctx.typeof(text) === 'string' ? ctx.getString(text) : undefined };
    } finally {
      for (const h of handles.reverse()) if (h.alive) h.dispose();
    }
  }

  /** The code's function: the tenant's compiled one when it may be reused, else compiled now (and disposed by `keep`'s owner). */
  private functionOf(
    scope: Scope,
    code: string,
    keep: (h: QuickJSHandle) => QuickJSHandle,
  ): { handle: QuickJSHandle } | { failure: RunFailure } {
    const { ctx, functions } = scope;
    const held = functions.get(code);
    if (held) return { handle: held };
    // `(` on the first line keeps the source's line numbers; the newline ends a trailing comment
    const compiled = ctx.evalCode(`(${code}\n)`, SOURCE_NAME, { strict: true });
    if (compiled.error) return { failure: this.failureOf(ctx, keep(compiled.error), 'compile') };
    const fn = compiled.value;
    if (ctx.typeof(fn) !== 'function') {
      keep(fn);
      const message = 'the code must be a function (request, context) => request | null';
      return { failure: { kind: 'not_a_function', message, line: null } };
    }
    const sealed = ctx.callFunction(scope.seal, ctx.undefined, fn, keep(ctx.newString(code.trim())));
    if (sealed.error) {
      keep(fn);
      return { failure: this.failureOf(ctx, keep(sealed.error), 'threw') };
    }
    const reusable = ctx.dump(keep(sealed.value)) === true;
    if (!reusable) return { handle: keep(fn) };
    functions.set(code, fn);
    return { handle: fn };
  }

  /** An async function's promise (of its result's JSON text) is run to its end within the same budget (no timers exist to wait on). */
  private settle(ctx: QuickJSContext, promise: QuickJSHandle): { value: QuickJSHandle } | { failure: RunFailure } {
    const jobs = ctx.runtime.executePendingJobs();
    if (jobs.error) return { failure: jobs.error.consume((e) => this.failureOf(ctx, e, 'threw')) };
    const state = ctx.getPromiseState(promise);
    if (state.type === 'fulfilled') return { value: state.value };
    if (state.type === 'rejected') return { failure: state.error.consume((e) => this.failureOf(ctx, e, 'threw')) };
    return { failure: { kind: 'threw', message: 'the returned promise never settled', line: null } };
  }

  private failureOf(ctx: QuickJSContext, error: QuickJSHandle, kind: RunFailureKind): RunFailure {
    const dumped = ctx.dump(error) as unknown;
    const e = (typeof dumped === 'object' && dumped !== null ? dumped : { message: String(dumped) }) as {
      name?: unknown;
      message?: unknown;
      stack?: unknown;
    };
    const name = typeof e.name === 'string' ? e.name : 'Error';
    const message = `${name}: ${typeof e.message === 'string' ? e.message : String(dumped)}`.slice(0, 500);
    const memory = name === 'InternalError' && /out of memory/i.test(message);
    return { kind: memory ? 'memory' : kind, message, line: lineOf(e.stack) };
  }

  private runtimeOf(tenant: string): TenantRuntime {
    const held = this.runtimes.get(tenant);
    if (held) {
      // most recently used last: the first entry is the one dropped when the map is full
      this.runtimes.delete(tenant);
      this.runtimes.set(tenant, held);
      return held;
    }
    if (this.runtimes.size >= MAX_RUNTIMES) this.drop(this.runtimes.keys().next().value as string);
    const runtime = this.module.newRuntime();
    runtime.setMemoryLimit(this.limits.memoryBytes);
    runtime.setMaxStackSize(this.limits.stackBytes);
    const made: TenantRuntime = { runtime, deadline: 0, scope: null };
    // no deadline while the context is being made (deadline 0 is not "past" until a call sets one)
    runtime.setInterruptHandler(() => made.deadline > 0 && performance.now() > made.deadline);
    this.runtimes.set(tenant, made);
    return made;
  }

  private drop(tenant: string): void {
    const held = this.runtimes.get(tenant);
    this.runtimes.delete(tenant);
    if (!held) return;
    try {
      held.scope?.dispose();
      held.runtime.dispose();
    } catch {
      // QuickJS aborts the whole module when a runtime is freed with objects still alive (the
      // jobs of a promise chain stopped mid-way): nothing in it runs again; the runner replaces
      // the thread (worker.ts)
      this.broken = true;
      this.runtimes.clear();
    }
  }

  /** true once the WebAssembly module aborted: this sandbox can run nothing more */
  broken = false;
}

/** The first line of the transformation's source that a stack names: `at f (transformation.js:3:9)`. */
export function lineOf(stack: unknown): number | null {
  if (typeof stack !== 'string') return null;
  const m = new RegExp(`${SOURCE_NAME.replace('.', '\\.')}:(\\d+)`).exec(stack);
  return m ? Number(m[1]) : null;
}

import { Sandbox } from './sandbox';
import type { RunResult } from './sandbox';

/*
 * Each way out of the sandbox a transformation might try, refused or stopped: host objects,
 * constructor chains, modules, shared memory, pollution carried between calls or tenants, and
 * the resource bombs (memory, long strings, recursion, loops). The budgets here are the defaults
 * except time and memory, kept small so the bombs end quickly.
 */

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.load({ timeMs: 200, memoryBytes: 8 * 1024 * 1024 });
});
afterAll(() => sandbox.close());

/** The value the code returned (parsed), or the run's failure. */
function run(code: string, tenant = 'acc_a'): RunResult & { value?: unknown } {
  const r = sandbox.run(tenant, code, [{ body: { n: 1 } }, { event_id: 'evt_1' }]);
  return r.ok && r.json !== undefined ? { ...r, value: JSON.parse(r.json) } : r;
}

describe('host objects are absent', () => {
  test.each([
    'process',
    'require',
    'module',
    'global',
    'Buffer',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'queueMicrotask',
    'fetch',
    'XMLHttpRequest',
    'WebSocket',
    'std',
    'os',
    'WebAssembly',
    'SharedArrayBuffer',
    'Atomics',
  ])('%s is undefined', (name) => {
    expect(run(`() => typeof ${name}`).value).toBe('undefined');
  });

  test('globalThis holds the language built-ins and the console only', () => {
    const names = run(`() => Object.getOwnPropertyNames(globalThis)`).value as string[];
    const host = names.filter((n) => /process|require|import|fetch|timeout|interval|std|os$|file/i.test(n));
    expect(host).toEqual([]);
  });
});

describe('constructor chains reach the sandbox, never the host', () => {
  test.each([
    [`function () { return this.constructor.constructor('return process')() }`],
    [`() => ({}).constructor.constructor('return process')()`],
    [`() => Function('return this')().process`],
    [`(r) => r.constructor.constructor('return globalThis.process')()`],
    [`() => Object.getPrototypeOf(async function(){}).constructor('return process')()`],
    [`() => (function*(){}).constructor('return require')().next()`],
  ])('%s', (code) => {
    const r = run(code);
    // either a ReferenceError inside the sandbox, or an undefined value: never a host object
    if (r.ok) expect(r.json === undefined || r.json === 'null' || r.json === '{}').toBe(true);
    else expect(r.failure.message).toMatch(/ReferenceError|not defined|undefined/);
  });

  test('eval is the sandbox’s own: what it evaluates sees no more than the caller', () => {
    expect(run(`() => eval('typeof process')`).value).toBe('undefined');
  });
});

describe('modules cannot be loaded', () => {
  test('import() rejects', () => {
    const r = run(`async () => { const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8') }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.kind).toBe('threw');
  });

  test('a static import is a syntax error', () => {
    const r = run(`import fs from 'fs'`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.kind).toBe('compile');
  });
});

describe('pollution does not outlive the call', () => {
  // the tenant's context is reused by its calls: its built-ins and global object are frozen
  test.each([
    [`() => { Object.prototype.polluted = 'yes' }`],
    [`() => { Array.prototype.push = () => 0 }`],
    [`() => { JSON.stringify = () => '"tampered"' }`],
    [`() => { globalThis.leak = 42 }`],
    [`() => { Object.defineProperty(Object.prototype, 'polluted', { value: 1 }) }`],
    [`() => { Object.setPrototypeOf(Object.prototype, { polluted: 1 }) }`],
    [`() => { ({}).constructor.prototype.polluted = 1 }`],
    [`() => { Object.getPrototypeOf(async function () {}).polluted = 1 }`],
    [`() => { Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }) }`],
    [`() => { console.log = () => 0 }`],
  ])('changing a built-in or the global object is refused: %s', (code) => {
    const r = run(code);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.message).toMatch(/TypeError/);
  });

  test('every built-in reachable from the global object or from syntax is frozen', () => {
    const code = `() => {
      const roots = [globalThis, function* () {}, async function () {}, async function* () {}, class {},
        [][Symbol.iterator](), new Map().entries(), new Set().values(), ''[Symbol.iterator](), /a/[Symbol.matchAll](''),
        new Int8Array(1), new ArrayBuffer(1), new DataView(new ArrayBuffer(1)), Promise.resolve(), new Error('e'), new Date(0), /a/g, 1n, Symbol('s')];
      const seen = new Set();
      const open = [];
      const walk = (o, path) => {
        if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
        seen.add(o);
        if (!Object.isFrozen(o)) open.push(path);
        walk(Object.getPrototypeOf(o), path + '.__proto__');
        for (const k of Reflect.ownKeys(o)) {
          const d = Object.getOwnPropertyDescriptor(o, k);
          if ('value' in d) walk(d.value, path + '.' + String(k)); else { walk(d.get, path + '.get ' + String(k)); walk(d.set, path + '.set ' + String(k)); }
        }
      };
      // the values syntax makes are the call's own; what they inherit must be frozen
      roots.forEach((r, i) => { if (i === 0) walk(r, 'globalThis'); else walk(Object.getPrototypeOf(Object(r)), 'root' + i) });
      return { open, seen: seen.size };
    }`;
    const r = run(code);
    expect(r.ok).toBe(true);
    const { open, seen } = (r as { value: { open: string[]; seen: number } }).value;
    expect(open).toEqual([]);
    expect(seen).toBeGreaterThan(300);
  });

  test('the next call of the same tenant, and another tenant, see the built-ins unchanged', () => {
    run(
      `() => { try { Object.prototype.polluted = 'yes' } catch (e) {} try { Array.prototype.push = () => 0 } catch (e) {} return 1 }`,
    );
    const look = `() => [typeof ({}).polluted, [].push.toString().includes('native'), typeof leak]`;
    expect(run(look, 'acc_a').value).toEqual(['undefined', true, 'undefined']);
    expect(run(look, 'acc_b').value).toEqual(['undefined', true, 'undefined']);
  });

  test('state kept in a closure does not reach the next call: the code is evaluated afresh each call', () => {
    const counter = `(() => { let n = 0; return () => ++n })()`;
    expect(run(counter).value).toBe(1);
    expect(run(counter).value).toBe(1);
  });

  test('the function cannot keep state on itself: it is frozen', () => {
    const r = run(`function f(r) { f.calls = (f.calls || 0) + 1; return f.calls }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.message).toMatch(/TypeError/);
  });

  test('a function reused between calls carries nothing from one to the next', () => {
    const code = `(r, context, seen = []) => { seen.push(r.body.n); return seen.length }`;
    expect([run(code).value, run(code).value, run(code).value]).toEqual([1, 1, 1]);
  });

  test('the result is serialised by the built-in stringify', () => {
    expect(run(`() => { try { JSON.stringify = () => '"tampered"' } catch (e) {} return { ok: true } }`).value).toEqual(
      {
        ok: true,
      },
    );
  });

  test('names of built-in properties stay assignable on the code’s own objects', () => {
    const code = `() => {
      class Failure extends Error { constructor(m) { super(m); this.name = 'Failure' } }
      const out = {};
      for (const k of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) out[k] = k.length;
      const f = () => 1;
      f.toString = () => 'f';
      return { error: String(new Failure('x')), out, assigned: Object.assign({}, { toString: 1 }), fn: String(f) };
    }`;
    expect(run(code).value).toEqual({
      error: 'Failure: x',
      out: { constructor: 11, toString: 8, valueOf: 7, hasOwnProperty: 14 },
      assigned: { toString: 1 },
      fn: 'f',
    });
  });
});

describe('resource bombs stop at their budget', () => {
  test('an infinite loop stops at the time budget', () => {
    const r = run(`() => { for (;;) {} }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.kind).toBe('timeout');
  });

  test('an infinite loop cannot catch its interruption', () => {
    const r = run(`() => { for (;;) { try { for (;;) {} } catch (e) {} } }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.kind).toBe('timeout');
  });

  test('a promise chain that never ends stops at the time budget; the module it leaves unusable says so (the runner replaces its thread)', async () => {
    // a sandbox of its own: freeing a runtime whose promise jobs were stopped aborts QuickJS's module
    const own = await Sandbox.load({ timeMs: 200, memoryBytes: 8 * 1024 * 1024 });
    const r = own.run('acc_a', `async () => { const spin = () => Promise.resolve().then(spin); await spin(); }`, []);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['timeout', 'memory']).toContain(r.failure.kind);
    if (own.broken) expect(own.run('acc_a', '() => 1', []).ok).toBe(false);
    else expect(own.run('acc_a', '() => 1', []).ok).toBe(true);
  });

  test('unbounded allocation stops at the memory limit', () => {
    const r = run(`() => { const a = []; for (;;) a.push(new Uint8Array(1 << 20)); }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.kind).toBe('memory');
  });

  test('a very long string stops at the memory limit', () => {
    const r = run(`() => { let s = 'x'; for (;;) s += s; }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['memory', 'threw']).toContain(r.failure.kind);
    if (!r.ok) expect(r.failure.message).toMatch(/memory|length|too long/i);
  });

  test('deep recursion stops with a stack overflow', () => {
    const r = run(`() => { const f = (n) => f(n + 1) + 1; return f(0) }`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.failure.message).toMatch(/stack overflow/i);
  });

  test('console output is bounded in lines and characters', () => {
    // past both bounds (50 lines, 500 characters) by far, yet quick: a loaded machine must not
    // turn this into a test of the time budget
    const r = run(`() => { for (let i = 0; i < 120; i++) console.log('x'.repeat(2000), { i }); return 1 }`);
    expect(r.ok).toBe(true);
    expect(r.logs.length).toBe(sandbox.limits.logLines);
    for (const line of r.logs) expect(line.length).toBeLessThanOrEqual(sandbox.limits.logLineChars);
  });

  test.each([['catastrophic regular-expression backtracking', `() => /(a+)+$/.test('a'.repeat(40) + 'b')`]])(
    '%s stops at the time budget: built-ins are interruptible too',
    (_name, code) => {
      const r = run(code);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.failure.kind).toBe('timeout');
    },
  );

  test('the tenant runs again normally after being stopped', () => {
    run(`() => { for (;;) {} }`, 'acc_loop');
    expect(run(`(r) => r.body.n + 1`, 'acc_loop').value).toBe(2);
  });
});

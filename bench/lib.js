// Shared helpers of the bench scripts: child processes, readiness, autocannon runs.
'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');
const autocannon = require('autocannon');

async function freePort() {
  const server = net.createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

function startProcess(file, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, file], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.output = () => out;
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  return child;
}

async function waitFor(url, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready: ${url}`);
}

/** Closed-loop load: `connections` keep-alive clients each send the next request on reply. */
async function load(url, { connections, durationS, body, headers }) {
  const result = await autocannon({ url, method: 'POST', connections, duration: durationS, body, headers, pipelining: 1 });
  const ok = result['2xx'];
  return {
    accepted_per_s: Math.round(ok / durationS),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

module.exports = { freePort, startProcess, waitFor, load };

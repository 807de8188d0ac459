// The load generator of bench/tenants.js: closed loop like autocannon (each connection has one
// request outstanding), but each request goes to an endpoint picked at random among many, and
// each connection is made from a source address of its own (127.0.x.y: Linux routes all of
// 127.0.0.0/8 to loopback) and replaced by one from the next address every REQUESTS_PER_CONNECTION
// (10) requests, so a 20 s run at ~700/s comes from over 1,000 senders. autocannon can do neither (no local address, one
// path per request list). Every phase of the bench, the single-endpoint one included, uses this
// generator, so the phases differ only in how the load is spread.
'use strict';
const http = require('node:http');
const { percentile } = require('./lib');

/** Requests one connection carries before it is replaced by one from the next source address. */
const REQUESTS_PER_CONNECTION = 10;

/**
 * `count` loopback addresses 127.0.x.y, x.y from 0.1 upwards (x.0 and x.255 skipped).
 * @param {number} count
 * @returns {string[]}
 */
function loopbackSources(count) {
  /** @type {string[]} */
  const out = [];
  for (let x = 0; out.length < count && x < 256; x++)
    for (let y = 1; out.length < count && y < 255; y++) out.push(`127.0.${x}.${y}`);
  return out;
}

/**
 * @param {http.Agent} agent
 * @param {number} port
 * @param {string} path
 * @param {string} body
 * @param {Record<string, string>} headers
 * @returns {Promise<number>} the status, 0 when the request failed
 */
function post(agent, port, path, body, headers) {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', () => resolve(0));
      },
    );
    req.once('error', () => resolve(0));
    req.end(body);
  });
}

/**
 * `connections` loops for `durationS`: each POSTs `makeBody(seq)` to `/relay/<endpoint>` of a
 * random endpoint, from its current source address. With `eachOnce`, every endpoint gets
 * exactly one request, in order, and the run ends then (or at `durationS`, a bound): a warm-up
 * that leaves every endpoint cached. Returns what loadTracked (bench/lib.js) returns, plus how
 * many distinct endpoints and sources were used.
 * @param {{ port: number; endpoints: string[]; sources: string[]; connections: number; durationS: number; headers: Record<string, string>; makeBody: (seq: number) => string; onAccepted?: (seq: number) => void; eachOnce?: boolean }} opts
 */
async function loadSpread({
  port,
  endpoints,
  sources,
  connections,
  durationS,
  headers,
  makeBody,
  onAccepted = () => undefined,
  eachOnce = false,
}) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<number, number>} */
  const statuses = {};
  const used = { endpoints: new Set(), sources: new Set() };
  let seq = 0;
  let nextSource = 0;
  let accepted = 0;
  let errors = 0;
  const startedAt = Date.now();
  const endAt = startedAt + durationS * 1000;
  let nextEndpoint = 0;
  const more = () => Date.now() < endAt && (!eachOnce || nextEndpoint < endpoints.length);
  const worker = async () => {
    while (more()) {
      const source = /** @type {string} */ (sources[nextSource++ % sources.length]);
      used.sources.add(source);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: source });
      for (let i = 0; i < REQUESTS_PER_CONNECTION && more(); i++) {
        const endpoint = /** @type {string} */ (
          eachOnce ? endpoints[nextEndpoint++] : endpoints[Math.floor(Math.random() * endpoints.length)]
        );
        used.endpoints.add(endpoint);
        const mine = seq++;
        const t0 = performance.now();
        const status = await post(agent, port, `/relay/${endpoint}`, makeBody(mine), headers);
        if (status === 0) {
          errors += 1;
          continue;
        }
        statuses[status] = (statuses[status] || 0) + 1;
        if (status >= 200 && status < 300) {
          accepted += 1;
          latencies.push(performance.now() - t0);
          onAccepted(mine);
        }
      }
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const endedAt = Date.now();
  latencies.sort((a, b) => a - b);
  const round = (/** @type {number | null | undefined} */ v) =>
    v === null || v === undefined ? null : Number(v.toFixed(1));
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    accepted,
    accepted_per_s: Math.round(accepted / ((endedAt - startedAt) / 1000)),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    requests,
    non_2xx: requests - accepted,
    statuses,
    errors,
    endpoints_used: used.endpoints.size,
    sources_used: used.sources.size,
    started_at: startedAt,
    ended_at: endedAt,
  };
}

module.exports = { loadSpread, loopbackSources };

// What learning a payload's shape costs the gateway per accepted event of a preset endpoint
// (docs/contracts.md "Drift"): shapeOf + shapeRecord (the sorted entries as JSON, their hash), which the gateway computes
// after the answer. A micro-bench of the functions alone, warm, on two payloads: a 20-field order
// and a GitHub `push` of about 5 KB. Prints µs per event (the median of 9 timings of 2,000 runs).
//
//   npx tsc -b && node bench/payload-shape.js
'use strict';
const { shapeOf, shapeRecord } = require('../libs/endpoints/dist');

const order = {
  id: 'ord_1',
  type: 'order.created',
  created: 1732870000,
  amount: 1999,
  currency: 'eur',
  paid: true,
  note: null,
  customer: { id: 'cus_1', email: 'a@example.com', name: 'A', address: { line1: 'x', city: 'y', zip: '1' } },
  items: [
    { sku: 'a', qty: 1, price: 999 },
    { sku: 'b', qty: 2, price: 500 },
  ],
  metadata: { source: 'web' },
};
/** @param {number} i */
const commit = (i) => ({
  id: `${i}`.padStart(40, 'a'),
  tree_id: `${i}`.padStart(40, 'b'),
  distinct: true,
  message: 'Fix the thing that was broken in the other thing',
  timestamp: '2026-11-29T09:00:00Z',
  url: `https://github.com/o/r/commit/${i}`,
  author: { name: 'A', email: 'a@example.com', username: 'a' },
  committer: { name: 'A', email: 'a@example.com', username: 'a' },
  added: [],
  removed: [],
  modified: ['src/a.ts', 'src/b.ts'],
});
const user = { login: 'a', id: 1, node_id: 'MDQ6VXNlcjE=', avatar_url: 'https://x/y', type: 'User', site_admin: false };
const push = {
  ref: 'refs/heads/main',
  before: 'a'.repeat(40),
  after: 'b'.repeat(40),
  repository: {
    id: 1,
    node_id: 'R_1',
    name: 'r',
    full_name: 'o/r',
    private: false,
    owner: user,
    html_url: 'https://github.com/o/r',
    description: 'A repository',
    fork: false,
    created_at: 1700000000,
    updated_at: '2026-11-29T09:00:00Z',
    pushed_at: 1732870000,
    size: 100,
    stargazers_count: 3,
    language: 'TypeScript',
    topics: ['a', 'b'],
    default_branch: 'main',
  },
  pusher: { name: 'a', email: 'a@example.com' },
  sender: user,
  created: false,
  deleted: false,
  forced: false,
  base_ref: null,
  compare: 'https://github.com/o/r/compare/a...b',
  commits: [commit(1), commit(2), commit(3), commit(4), commit(5), commit(6), commit(7), commit(8)],
  head_commit: commit(8),
};

/** @param {unknown} payload */
function measure(payload) {
  const once = () => {
    return shapeRecord(shapeOf(payload).shape).id;
  };
  const runs = 2000;
  const timings = [];
  for (let t = 0; t < 10; t++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) once();
    // the first timing warms the JIT and is left out
    if (t > 0) timings.push(Number(process.hrtime.bigint() - start) / 1000 / runs);
  }
  timings.sort((a, b) => a - b);
  return timings[Math.floor(timings.length / 2)];
}

for (const [name, payload] of [
  ['order, 20 fields', order],
  [`github push, ${JSON.stringify(push).length} bytes`, push],
]) {
  console.log(`${name}: ${measure(payload).toFixed(1)} µs per event, ${shapeOf(payload).shape.size} paths`);
}

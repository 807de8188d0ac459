// A tiny webhook receiver for `npm start`: prints every request Relay delivers to it.
'use strict';
const http = require('node:http');

const port = Number(process.env.DEMO_RECEIVER_PORT || 8099);
http
  .createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const tracking = ['x-relay-event-id', 'x-relay-delivery-id', 'x-relay-attempt']
        .map((h) => `${h}=${req.headers[h]}`)
        .join(' ');
      console.log(`demo-receiver: ${req.method} ${req.url} ${tracking}\n  ${Buffer.concat(chunks).toString('utf8')}`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  })
  .listen(port, '127.0.0.1', () => console.log(`demo-receiver: listening on http://127.0.0.1:${port}/hook`));

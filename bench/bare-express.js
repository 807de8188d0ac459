// The baseline: express 5 reading the request body and answering the same 202 the gateway
// sends, with no Relay work at all. The gateway's throughput is reported relative to this.
'use strict';
const express = require('express');
const { portOf } = require('./lib');

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.post('/relay/:endpointId', express.raw({ type: () => true, limit: '1mb' }), (_req, res) => {
  res.status(202).json({ message: 'Payload received' });
});
const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${portOf(server)}\n`);
});
server.keepAliveTimeout = 65000;

'use strict';
// How the S3 and SQS test servers that `bash scripts/infra.sh tools` installs are started: the one
// description the benches and the tests share (test/support/s3-server.ts, sqs-servers.ts).

const path = require('node:path');

const TOOLS = path.resolve(__dirname, '..', '.infra', 'tools');
/** ElasticMQ's jars, as scripts/infra.sh assembles them */
const ELASTICMQ_LIB = path.join(TOOLS, 'elasticmq-1.6.14', 'lib');
/** versitygw, as scripts/infra.sh builds it */
const VERSITYGW = path.join(TOOLS, 'versitygw-v1.8.0', 'versitygw');

/**
 * versitygw on its posix backend, on 127.0.0.1:`port`, with one root key; objects in `dir`/data
 * and their metadata (content type, x-amz-meta-*) in `dir`/meta files, not in xattrs /tmp may lack.
 * @param {{ accessKeyId: string; secretAccessKey: string; port: number; dir: string }} o
 * @returns {string[]} the program and its arguments
 */
function versitygwCommand(o) {
  return [
    VERSITYGW,
    '--access',
    o.accessKeyId,
    '--secret',
    o.secretAccessKey,
    '--port',
    `127.0.0.1:${o.port}`,
    '--quiet',
    'posix',
    '--sidecar',
    path.join(o.dir, 'meta'),
    path.join(o.dir, 'data'),
  ];
}

/**
 * ElasticMQ on the JVM with a small heap, set by `settings` (its port, its storage).
 * @param {string[]} settings `-D` system properties or `-Dconfig.file=…`
 * @returns {string[]} the program and its arguments
 */
function elasticmqCommand(settings) {
  // a small heap and the quick JIT tier: a test server starts in seconds on 2 busy cores
  return [
    'java',
    '-Xmx256m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    ...settings,
    '-cp',
    path.join(ELASTICMQ_LIB, '*'),
    'org.elasticmq.server.Main',
  ];
}

module.exports = { ELASTICMQ_LIB, VERSITYGW, elasticmqCommand, versitygwCommand };

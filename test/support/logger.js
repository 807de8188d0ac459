"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.testLogger = testLogger;
const node_stream_1 = require("node:stream");
const logging_1 = require("@relay/logging");
/** A real JSON logger whose lines a test can read back. */
function testLogger(service = 'test') {
    const stream = new node_stream_1.PassThrough();
    const chunks = [];
    stream.on('data', (c) => chunks.push(c.toString()));
    const logger = (0, logging_1.createLogger)({ service, level: process.env.TEST_LOG_LEVEL ?? 'debug', stream });
    return {
        logger,
        lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
    };
}
//# sourceMappingURL=logger.js.map
"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ActivityPipeline = exports.createActivityWriter = void 0;
exports.collectionsOf = collectionsOf;
const internal_1 = require("../../libs/activity-log/src/storage/internal");
/**
 * The activity log's insides (@relay/activity-log keeps them to itself), for the tests that check
 * its layout on the real store: index pages, page counts, partitions. Everything else uses the
 * library's surface (openActivityLog).
 */
__exportStar(require("../../libs/activity-log/src/storage/internal"), exports);
var flush_1 = require("../../libs/activity-log/src/writing/flush");
Object.defineProperty(exports, "createActivityWriter", { enumerable: true, get: function () { return flush_1.createActivityWriter; } });
var pipeline_1 = require("../../libs/activity-log/src/writing/pipeline");
Object.defineProperty(exports, "ActivityPipeline", { enumerable: true, get: function () { return pipeline_1.ActivityPipeline; } });
const opened = new WeakMap();
/** The log's collections on a test's store (one handle per store). */
function collectionsOf(store) {
    let c = opened.get(store);
    if (!c) {
        c = new internal_1.LogCollections(store.connection);
        opened.set(store, c);
    }
    return c;
}
//# sourceMappingURL=activity-log-internals.js.map
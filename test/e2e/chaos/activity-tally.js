"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.tallyActivity = tallyActivity;
const mongoose_1 = __importDefault(require("mongoose"));
const contracts_1 = require("@relay/contracts");
const activity_log_internals_1 = require("../../support/activity-log-internals");
/**
 * Reads every document of every `activity_rows_<hour>` partition (a whole-collection read, not
 * the service's by-`_id` access: this runs once, after the run) and merges late attempts into
 * their rows the way the management API does when it reads a row.
 */
async function tallyActivity(mongodbUrl) {
    const conn = await mongoose_1.default.createConnection(mongodbUrl, { serverSelectionTimeoutMS: 10000 }).asPromise();
    try {
        const db = conn.db;
        const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.startsWith('activity_rows_'));
        const rows = new Map();
        const late = new Map();
        for (const name of names) {
            for await (const doc of db.collection(name).find({}, { batchSize: 2000 })) {
                const id = String(doc._id);
                const cut = id.indexOf('~a~');
                if (cut >= 0) {
                    const eventId = id.slice(0, cut);
                    late.set(eventId, [...(late.get(eventId) ?? []), doc.attempt]);
                }
                else {
                    rows.set(id, (0, activity_log_internals_1.decodeRow)(doc));
                }
            }
        }
        const tally = { rows: rows.size, requests: 0, byOutcome: {}, accepted: new Set(), aggregatedRows: 0, aggregatedRequests: 0, pending: 0, pendingIds: [], attemptsOnly: 0, byStatus: {}, odd: [] };
        const odd = (id, outcome) => {
            if (tally.odd.length < 20)
                tally.odd.push({ id, outcome, at: (0, contracts_1.timeOfId)(id) ?? 0 });
        };
        for (const [id, stored] of rows) {
            // merging (even nothing) derives the status again from the outcome and the attempts
            const row = (0, activity_log_internals_1.mergeAttempts)(stored, late.get(id) ?? []);
            const status = row.status;
            tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
            if (status === 'pending') {
                tally.pending += 1;
                if (tally.pendingIds.length < 10)
                    tally.pendingIds.push(id);
            }
            if (!row.outcome) {
                tally.attemptsOnly += 1;
                odd(id, '(attempts only)');
                continue;
            }
            if (row.outcome !== 'ACCEPTED' && row.outcome !== 'DELIVERY_QUEUE_UNAVAILABLE')
                odd(id, row.outcome);
            const count = row.aggregate ? row.aggregate.count : 1;
            if (row.aggregate) {
                tally.aggregatedRows += 1;
                tally.aggregatedRequests += count;
            }
            tally.requests += count;
            tally.byOutcome[row.outcome] = (tally.byOutcome[row.outcome] ?? 0) + count;
            if (row.outcome === 'ACCEPTED')
                tally.accepted.add(id);
        }
        // late attempts whose row is not there at all
        for (const id of late.keys()) {
            if (rows.has(id))
                continue;
            tally.attemptsOnly += 1;
            odd(id, '(late attempts only)');
        }
        return tally;
    }
    finally {
        await conn.close();
    }
}
//# sourceMappingURL=activity-tally.js.map
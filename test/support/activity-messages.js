"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.activityRecordsOf = activityRecordsOf;
const contracts_1 = require("@relay/contracts");
/** The activity records one message of the activity queue carries: a batch's records, or the single record. */
function activityRecordsOf(body) {
    const message = (0, contracts_1.decodeMessage)(body, [contracts_1.ACTIVITY_REQUEST_V1, contracts_1.ACTIVITY_ATTEMPT_V1, contracts_1.ACTIVITY_BATCH_V1]);
    return message.type === contracts_1.ACTIVITY_BATCH_V1 ? message.records : [message];
}
//# sourceMappingURL=activity-messages.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startDashboardStack = startDashboardStack;
const services_1 = require("../../support/services");
const stack_1 = require("../stack");
/**
 * The whole stack for the dashboard's tests, with the management API started last so that its
 * PUBLIC_BASE_URL is the gateway's real address: the ingest URL and curl line the dashboard
 * shows then reach the gateway as shown.
 */
async function startDashboardStack(label, overrides = {}) {
    const stack = await (0, stack_1.startStack)(label, { only: ['ingest-gateway', 'webhook-deliverer', 'activity-writer'], overrides });
    try {
        const gateway = stack.services['ingest-gateway'];
        // test requests run through the gateway's pipeline on its health port (GATEWAY_INTERNAL_URL)
        stack.services['management-api'] = await (0, services_1.startService)('management-api', { ...stack.env, PUBLIC_BASE_URL: gateway.url, GATEWAY_INTERNAL_URL: gateway.healthUrl });
    }
    catch (err) {
        await stack.stop();
        throw err;
    }
    return Object.assign(stack, { dashboardUrl: `${stack.services['management-api'].url}/` });
}
//# sourceMappingURL=stack.js.map
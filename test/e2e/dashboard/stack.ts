import { startService } from '../../support/services';
import type { ServiceName } from '../../support/services';
import { startStack } from '../stack';
import type { Stack } from '../stack';

/**
 * The whole stack for the dashboard's tests, with the management API started last so that its
 * PUBLIC_BASE_URL is the gateway's real address: the ingest URL and curl line the dashboard
 * shows then reach the gateway as shown.
 */
export async function startDashboardStack(
  label: string,
  overrides: Partial<Record<ServiceName, Record<string, string>>> = {},
): Promise<Stack & { dashboardUrl: string }> {
  const stack = await startStack(label, {
    only: ['ingest-gateway', 'webhook-deliverer', 'activity-writer'],
    overrides,
  });
  try {
    const gateway = stack.services['ingest-gateway']!;
    // test requests run through the gateway's pipeline on its health port (GATEWAY_INTERNAL_URL)
    stack.services['management-api'] = await startService('management-api', {
      ...stack.env,
      PUBLIC_BASE_URL: gateway.url,
      GATEWAY_INTERNAL_URL: gateway.healthUrl,
    });
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return Object.assign(stack, { dashboardUrl: `${stack.services['management-api']!.url}/` });
}

import { startService } from '../../support/services';
import { startStack } from '../stack';
import type { Stack, StackOptions } from '../stack';

/**
 * The whole stack for the dashboard's tests, its management API's PUBLIC_BASE_URL the gateway's
 * real address: the ingest URL and curl line the dashboard shows then reach the gateway as shown.
 * Without overrides that is the worker's shared stack (its management API is started so); with
 * them, a private stack whose management API is started last, once the gateway's address is known.
 */
export async function startDashboardStack(
  label: string,
  opts: Pick<StackOptions, 'overrides' | 'private'> = {},
): Promise<Stack & { dashboardUrl: string }> {
  if (!opts.overrides && !opts.private) {
    const stack = await startStack(label);
    return Object.assign(stack, { dashboardUrl: `${stack.services['management-api']!.url}/` });
  }
  const stack = await startStack(label, {
    only: ['ingest-gateway', 'webhook-deliverer', 'activity-writer'],
    overrides: opts.overrides,
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

import { Router } from 'express';
import type { Request, Response } from 'express';
import { ORDERED_CHANNELS } from '@relay/contracts';
import { TARGET_FIELDS, wireDescription, wireFields } from '@relay/targets';
import type { TargetRegistry } from '@relay/targets';
import { operation } from './operation';

/**
 * `GET /v1/target-kinds`: every kind's description (libs/targets describe/), from which the
 * dashboard draws its add and edit forms — a new kind appears there with no dashboard edit.
 * The same for every account; built once.
 */
export function targetKindRoutes(registry: TargetRegistry): Router {
  const r = Router();
  const body = {
    target_fields: wireFields(TARGET_FIELDS),
    data: registry.kinds().map((name) => {
      const kind = registry.get(name)!;
      return {
        kind: kind.kind,
        channel: kind.channel,
        ordering: ORDERED_CHANNELS.includes(kind.channel),
        default_retry_schedule_ms: [...kind.defaultRetryScheduleMs],
        default_limits: kind.defaultLimits ?? null,
        ...wireDescription(kind.description),
      };
    }),
  };
  r.get('/', ...operation('listTargetKinds'), (_req: Request, res: Response) => {
    res.json(body);
  });
  return r;
}

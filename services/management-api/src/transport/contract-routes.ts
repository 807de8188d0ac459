import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Store } from '@relay/store';
import { loadEndpoint } from '../adapters/endpoint-store';
import { validateContracts, validatePayload } from '../domain/contracts';
import { ok } from '../domain/input-fields';
import { accountOf } from './auth';
import { ApiError, notFound } from './errors';
import { checked, operation } from './operation';

/**
 * POST /v1/endpoints/:endpointId/validate — the dry run of the endpoint's payload contracts
 * (docs/contracts.md): which schema applies to the payload and what fails, delivering and
 * recording nothing. `contracts` in the body tries a draft instead of the saved setting.
 */
export function contractRoutes(deps: { store: Store }): Router {
  const r = Router();
  r.post(
    '/:endpointId/validate',
    ...operation('validateEndpointPayload', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const endpoint = await loadEndpoint(deps.store, accountOf(req), String(req.params.endpointId));
      if (!endpoint) throw notFound('Endpoint');
      const body = req.body as { headers?: Record<string, string>; body?: unknown; contracts?: unknown };
      // the document's problems and the draft's, reported together
      const draft = checked(req, body.contracts === undefined ? ok(null) : validateContracts(body.contracts));
      const contracts = draft ?? endpoint.contracts ?? null;
      if (contracts === null)
        throw new ApiError(409, 'no_contracts', 'The endpoint has no contracts; send `contracts` to try a draft.');
      res.json(validatePayload(contracts, body));
    },
  );
  return r;
}

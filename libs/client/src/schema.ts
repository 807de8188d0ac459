/**
 * Generated from the management API's OpenAPI document by openapi-typescript
 * (libs/client/scripts/generate.mjs). Do not edit: change the document in
 * services/management-api/src/openapi and run `npm run client:generate`.
 * `npm run lint` fails when this file and the document disagree.
 */

export interface paths {
    "/v1/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List endpoints
         * @description The account's endpoints, oldest first.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listEndpoints"];
        put?: never;
        /**
         * Create an endpoint
         * @description Only `name` is required. Every setting is validated as it will be stored; every problem is reported at once.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["createEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an endpoint
         * @description Needs an API key with the **viewer** role or higher.
         */
        get: operations["getEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete an endpoint
         * @description Deletes the endpoint and its targets. Its audit history stays.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        delete: operations["deleteEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change settings
         * @description Each setting sent replaces the stored one as a whole; the others stay. Checked against the revision read: a concurrent change makes it 409. Sending `enabled` or `paused` with a new value is audited like the matching action.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        patch: operations["updateEndpoint"];
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause an endpoint
         * @description The manual pause: requests get 503 `endpoint_unavailable` until it is resumed. Takes no body. When the control changes, one audit row is written and the gateways are told; repeating it changes nothing (200, no new row).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["pauseEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume an endpoint
         * @description Ends the manual pause only; an active maintenance window still pauses the endpoint. Takes no body. When the control changes, one audit row is written and the gateways are told; repeating it changes nothing (200, no new row).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["resumeEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable an endpoint
         * @description Enabled off: requests get 404 and leave no activity row. Takes no body. When the control changes, one audit row is written and the gateways are told; repeating it changes nothing (200, no new row).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["disableEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable an endpoint
         * @description Enabled on. Takes no body. When the control changes, one audit row is written and the gateways are told; repeating it changes nothing (200, no new row).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["enableEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit history of an endpoint
         * @description Every change of the endpoint, newest first: its creation, settings saved (field names; a secret only as changed; maintenance windows too), manual enable, disable, pause and resume, its targets created, changed, deleted and their flag cleared — with who, when and from where. Scheduled pauses are never recorded (spec).
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listEndpointAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a payload against the contracts
         * @description Checks a payload with the endpoint’s contracts (or the draft sent as `contracts`) as the gateway would, and says which schema applied and what failed. Nothing is delivered or recorded.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        post: operations["validateEndpointPayload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List targets
         * @description The endpoint's targets, oldest first. Configs show no secret value.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listTargets"];
        put?: never;
        /**
         * Add a target
         * @description `kind`, `name` and the kind’s `config` are required. Every problem of the target and of its config is reported at once. Credentials are sealed before they are stored.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["createTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a target
         * @description Needs an API key with the **viewer** role or higher.
         */
        get: operations["getTarget"];
        put?: never;
        post?: never;
        /**
         * Delete a target
         * @description Needs an API key with the **editor** role or higher.
         */
        delete: operations["deleteTarget"];
        options?: never;
        head?: never;
        /**
         * Change a target
         * @description Only `name`, `enabled`, `retry_schedule_ms`, `limits`, `breaker`, `routing` and `ordering`: a new kind or config is a new target.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        patch: operations["updateTarget"];
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/flag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Clear a target's flag
         * @description Once the destination is fixed: deliveries flow again within the deliverers’ target cache TTL (docs/delivery.md "Flagged targets").
         *
         *     Needs an API key with the **editor** role or higher.
         */
        delete: operations["clearTargetFlag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/held-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a target's held ordering keys
         * @description The ordering keys whose head delivery waits now — for its next attempt, or held by the target gate — oldest first, at most 100; `stuck` once one has waited longer than the deliverers’ ORDERING_STUCK_AFTER_MS (docs/ordering.md "Held keys"). Empty for a target that is not ordered.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listHeldKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a target's deliveries
         * @description Every delivery to the target is held on the broker (none sent, no attempt used) until it is resumed; `breaker_state` becomes `paused`. Pausing a paused target changes nothing (docs/delivery-limits.md "Pause and resume").
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["pauseTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused target's deliveries
         * @description The breaker closes with an empty window; held deliveries come back within a minute. Resuming a target that is not paused changes nothing (an open breaker stays open until its probe succeeds).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["resumeTarget"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/transformation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the endpoint’s transformation (before fan-out)
         * @description The active code and version, and the versions kept (without their code).
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["getEndpointTransformation"];
        /**
         * Save the endpoint’s transformation (before fan-out) as a new version
         * @description Each save is the next numbered version, active at once; audited.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        put: operations["saveEndpointTransformation"];
        post?: never;
        /**
         * Remove the endpoint’s transformation (before fan-out)
         * @description Nothing runs any more; the versions stay and can be restored.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        delete: operations["removeEndpointTransformation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/transformation/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one version of the endpoint’s transformation (before fan-out)
         * @description Needs an API key with the **viewer** role or higher.
         */
        get: operations["getEndpointTransformationVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/transformation/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version of the endpoint’s transformation (before fan-out)
         * @description Its code is saved again as the newest version (`restored_from` names it), active at once; audited.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["restoreEndpointTransformation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/transformation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the target’s transformation
         * @description The active code and version, and the versions kept (without their code).
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["getTargetTransformation"];
        /**
         * Save the target’s transformation as a new version
         * @description Each save is the next numbered version, active at once; audited.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        put: operations["saveTargetTransformation"];
        post?: never;
        /**
         * Remove the target’s transformation
         * @description Nothing runs any more; the versions stay and can be restored.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        delete: operations["removeTargetTransformation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/transformation/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one version of the target’s transformation
         * @description Needs an API key with the **viewer** role or higher.
         */
        get: operations["getTargetTransformationVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/targets/{targetId}/transformation/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version of the target’s transformation
         * @description Its code is saved again as the newest version (`restored_from` names it), active at once; audited.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["restoreTargetTransformation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/transformations/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Try a draft on stored requests
         * @description Runs `code` (not saved) on the endpoint’s newest accepted requests, or on `event_ids`, in the sandbox: per request the input, the output (null: dropped), a diff, the console lines, the time and any error with its line. Delivers nothing.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["previewTransformation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/target-kinds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List target kinds
         * @description Every target kind this deployment knows, each setting of its config described as data (type, limits, whether it is a credential, label, help, example), and the settings every target has (`target_fields`). The dashboard draws its target forms from it.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listTargetKinds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Request activity log
         * @description Newest hour first. Each call reads at most a fixed number of stored pages, so a sparse filter can return fewer than `limit` rows — even none — with a `next_cursor`: follow it until it is null.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One activity row
         * @description The row with its deliveries and every attempt (the error reason shown on expanding a row).
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["getActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/{eventId}/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The request of an activity row
         * @description What the sender sent, as the gateway kept it for resends: method, source IP, query, headers (credentials redacted) and the payload (its bytes, size and, when UTF-8, its text). Kept for accepted and quarantined requests (docs/ingest.md "Quarantine"), as long as the row; any other refused request has none (404).
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["getActivityRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test request
         * @description Runs a request through the real ingest pipeline as if a sender had sent it, and delivers it to the targets. IP lists, inbound auth, captcha, the rate limit and the quota are skipped; the row is in the Test group. Each account may run TEST_REQUESTS_PER_MINUTE a minute.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["testEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/{eventId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend an event
         * @description Delivers an accepted event’s stored payload again, under the same event id with new delivery ids, to the targets named or every enabled target the event was routed to. The row lists the new deliveries beside the first. Each account may ask for RESENDS_PER_MINUTE a minute; resends of one event may add at most 100 deliveries.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["resendActivity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/activity/{eventId}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-run a quarantined request
         * @description Runs a quarantined request (its row’s `quarantine` is `kept`: refused by its payload or the endpoint’s rules after it passed authentication) through the endpoint’s steps again under the current settings, as if just received: IP lists, inbound auth and captcha are skipped (it passed them, or its token is spent); the rate limit, quota and de-duplication count as for a sender. The new row’s `rerun_of` names the original; a request re-run and accepted once is answered with that event (`replayed`). Counts against RESENDS_PER_MINUTE.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["rerunActivity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk-retries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bulk retries
         * @description The account’s bulk retries, newest first, each as `GET /v1/bulk-retries/{jobId}` gives it. Jobs are kept until they are older than the activity they retried (ACTIVITY_RETENTION_DAYS), then deleted, oldest first.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listBulkRetries"];
        put?: never;
        /**
         * Start a bulk retry
         * @description A background job that delivers again every failed delivery of the Errors group in a window, paced at `rate_per_second`. Each account may start 20 an hour.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["createBulkRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk-retries/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count what a bulk retry would queue
         * @description Takes the body of `POST /v1/bulk-retries` and answers how many failed deliveries, of how many events, a bulk retry of it would queue again now — by the job’s own rules and walk, queuing nothing. Reads at most 500 rows (the newest of the window); past that `complete` is false. Each account may ask for 30 a minute.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["previewBulkRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk-retries/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a bulk retry
         * @description Its state and counts so far.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["getBulkRetry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk-retries/{jobId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a bulk retry
         * @description Asks the job to stop; it does within about a second, its state becomes `cancelled` and its counts final. Takes no body.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["cancelBulkRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reruns/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count the quarantined requests a bulk re-run would run
         * @description Counts the quarantined requests (row `quarantine`: `kept`) of an endpoint (or every endpoint) in a window, running nothing. Each account may ask for 30 bulk re-runs and previews a minute.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["previewBulkRerun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reruns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-run the quarantined requests of a window
         * @description Re-runs every quarantined request of the filter (as `POST /v1/activity/{eventId}/rerun` does one), oldest first, one after another within this request, and answers what became of each. At most 100: a window holding more is refused whole before anything runs. Count first with `POST /v1/reruns/preview`. A request already re-run and accepted is answered with that event (`replayed`), so running a window again is safe.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["createBulkRerun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/usage/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage over time: per day and per endpoint
         * @description Accepted events of the current UTC calendar month per day (from the 1st to today) and per endpoint, against the plan — from the counters the gateway increments as it accepts (never a scan of the activity log). `unattributed`: events the monthly counter holds without a day (counted per gateway process while Redis was unreachable). Endpoints without events this month are not listed; a deleted endpoint keeps its counts with `name: null`. `Cache-Control: no-store`.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["getDailyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current usage
         * @description Accepted events of the current UTC calendar month against the plan (spec "Other interfaces": readable by account owner or administrator). `Cache-Control: no-store`.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current usage (also at /billing/usage)
         * @description Accepted events of the current UTC calendar month against the plan (spec "Other interfaces": readable by account owner or administrator). `Cache-Control: no-store`.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["getUsageV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's plan
         * @description Needs an API key with the **owner** role or higher.
         */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the account's plan
         * @description Sets the limits sent. Audited (`plan_changed`, before and after). Every gateway enforces the new limits within a second: the change is announced to their caches.
         *
         *     Needs an API key with the **owner** role or higher.
         */
        patch: operations["updatePlan"];
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The account's keys, oldest first: prefix, role, name, created, last used. Never a secret.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The response carries the key (`secret`) once; only its digest is stored. An admin key creates keys below owner; an owner key any. Audited (`key_created`).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description The key is refused from the next request on, by every management-api process. An admin key revokes keys below owner; an owner key any — but not the last owner key (409 `last_owner_key`). Audited (`key_revoked`).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's audit history
         * @description Every change of configuration in the account, newest first: endpoint settings (field names; a secret only as changed), states, targets, API keys created and revoked, plan changes — with who (key prefix and name), when and from where. `endpoint_id` keeps one endpoint's rows, also after it was deleted. Rows are kept as long as the account (never expired).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["listAccountAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/identity-provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's identity provider
         * @description Issuer and client id; the client secret only as set. `redirect_uri` is what to register at the provider.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["getIdentityProvider"];
        /**
         * Set the account's identity provider
         * @description The OpenID Connect provider members sign in with (authorization code with PKCE). Its discovery document is read now: an issuer that does not answer one naming itself is a 400 on `issuer`. Audited (`identity_provider_set`; the secret only as changed).
         *
         *     Needs an API key with the **owner** role or higher.
         */
        put: operations["setIdentityProvider"];
        post?: never;
        /**
         * Remove the account's identity provider
         * @description Members can no longer sign in; their sessions already open go on until they end. Audited (`identity_provider_removed`).
         *
         *     Needs an API key with the **owner** role or higher.
         */
        delete: operations["removeIdentityProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description The account's members, oldest first.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description Their dashboard sessions are refused from the next request on, by every management-api process. An admin removes members below owner; an owner anyone. Audited (`member_removed`).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List open invitations
         * @description Invitations not yet accepted, revoked or expired, oldest first. Never their links.
         *
         *     Needs an API key with the **admin** role or higher.
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite a member
         * @description Mails a single-use link (valid INVITATION_TTL_HOURS) through the operator’s mail relay; only its digest is stored. Signing in through it with the account’s identity provider makes that identity a member with `role`. An admin invites below owner; an owner any role. Audited (`member_invited`).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an invitation
         * @description Its link stops working at once. Audited (`invitation_revoked`).
         *
         *     Needs an API key with the **admin** role or higher.
         */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List alert rules
         * @description The account’s alert rules, oldest first.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listAlertRules"];
        put?: never;
        /**
         * Add an alert rule
         * @description What to be told (conditions) and where (targets of the account). Every target and endpoint named must be the account’s. At most 20 rules an account (409 `too_many_alert_rules`).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an alert rule
         * @description Needs an API key with the **viewer** role or higher.
         */
        get: operations["getAlertRule"];
        /**
         * Change an alert rule
         * @description The whole rule, as when it was created.
         *
         *     Needs an API key with the **editor** role or higher.
         */
        put: operations["replaceAlertRule"];
        post?: never;
        /**
         * Delete an alert rule
         * @description Needs an API key with the **editor** role or higher.
         */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules/{ruleId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test alert
         * @description Sends an alert marked as a test about the rule’s first condition to each of its targets, through the normal delivery path (no episode, no hourly rate; at most 10 a minute an account, then 429 `too_many_test_alerts`).
         *
         *     Needs an API key with the **editor** role or higher.
         */
        post: operations["testAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alert history
         * @description The last 100 alerts the account was sent (tests included), newest first, each with the activity rows of its deliveries.
         *
         *     Needs an API key with the **viewer** role or higher.
         */
        get: operations["listAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alive
         * @description The process is alive; no dependency is checked.
         */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ready
         * @description Every dependency (the store, Redis) answered; 503 with the failing names otherwise.
         */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 description of the management API: the source the API validates requests with.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reference page
         * @description This document as one HTML page, rendered by the management API itself (no script, no network).
         */
        get: operations["getReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        FieldError: {
            /** @description the field as a form places it: `name`, `inbound_auth.bearer.tokens[1]`, `config.url`; `(body)` for the body itself */
            field: string;
            /** @description what is wrong; never repeats the submitted value */
            message: string;
        };
        /** @description Keeps a stored secret (docs/management-api.md "Keeping a stored secret"). */
        KeepSecret: {
            /** @description the slot of a stored secret, as the response lists it */
            keep: number;
        };
        /** @description A stored secret: never its value. */
        RedactedSecret: {
            /** @constant */
            set: true;
            /** @description the last four characters of tokens, keys and HMAC secrets of 16 or more characters; never shown to viewer keys */
            last4?: string;
        };
        /** @description docs/inbound-auth.md "Custom HMAC" */
        CustomHmac: {
            /** @enum {string} */
            algorithm: "sha1" | "sha256" | "sha512";
            header: string;
            /** @enum {string} */
            encoding: "hex" | "base64";
            prefix?: string;
            /** @description what is signed, e.g. `{{timestamp}}.{{body}}`; must include `{{body}}` */
            template: string;
            timestamp_header?: string;
            /** @enum {string} */
            timestamp_unit?: "seconds" | "milliseconds";
            id_header?: string;
            /** @description where the delivery id is in a JSON body, e.g. `data.id` (dedup) */
            id_json_path?: string;
        };
        InboundAuthInputNone: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "NONE";
        };
        InboundAuthInputBasic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "BASIC";
            credentials: {
                username: string;
                password: string | components["schemas"]["KeepSecret"];
            }[];
        };
        InboundAuthInputBearer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "BEARER";
            /** @description the current secret, and the one being rotated to */
            tokens: (string | components["schemas"]["KeepSecret"])[];
        };
        InboundAuthInputApiKey: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "API_KEY";
            header: string;
            /** @description the current secret, and the one being rotated to */
            keys: (string | components["schemas"]["KeepSecret"])[];
        };
        InboundAuthInputHmac: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "HMAC";
            /**
             * @description docs/inbound-auth.md lists each preset
             * @enum {string}
             */
            preset: "github" | "stripe" | "slack" | "shopify" | "twilio" | "standard_webhooks" | "svix" | "zoom" | "paddle" | "square" | "linear" | "gitlab" | "discord" | "acuity" | "aftership" | "agora" | "airtable" | "airwallex" | "alchemy" | "asana" | "auth0" | "authorize_net" | "aws_sns" | "bitbucket" | "bolt" | "box" | "brex" | "btcpay" | "buildkite" | "cal_com" | "calendly" | "checkout_com" | "circleci" | "clerk" | "clickup" | "close" | "coinbase_commerce" | "convoy" | "cursor" | "customer_io" | "docusign" | "doppler" | "dropbox" | "dub" | "dwolla" | "easypost" | "ebay" | "ebay_sandbox" | "elevenlabs" | "expo" | "facebook" | "fastspring" | "flutterwave" | "forgejo" | "frame_io" | "gitea" | "gocardless" | "gogs" | "help_scout" | "heroku" | "hookdeck" | "hubspot" | "incident_io" | "instagram" | "intercom" | "jira" | "launchdarkly" | "lemon_squeezy" | "line" | "liveblocks" | "loops" | "mandrill" | "maxio" | "microsoft_graph" | "microsoft_teams" | "modern_treasury" | "mongodb_atlas" | "mux" | "notion" | "nylas" | "oncehub" | "onfido" | "openai" | "optimizely" | "orb" | "pagerduty" | "patreon" | "paypal" | "paystack" | "persona" | "polar" | "pulumi" | "pusher" | "quickbooks" | "razorpay" | "recurly" | "render" | "replicate" | "resend" | "revenuecat" | "revolut_business" | "ringcentral" | "sanity" | "segment" | "sendbird" | "sendgrid" | "sentry" | "snyk" | "storyblok" | "stream" | "tally" | "telegram" | "telnyx" | "terraform_cloud" | "thinkific" | "tiktok" | "todoist" | "trello" | "twitch" | "typeform" | "unit" | "vapi" | "vercel" | "viber" | "webex" | "webflow" | "websub" | "whatsapp" | "wise" | "woocommerce" | "workos" | "x" | "xero" | "zendesk" | "custom";
            /** @description the current secret, and the one being rotated to */
            secrets: (string | components["schemas"]["KeepSecret"])[];
            tolerance_seconds?: number;
            /** @description Meta presets: the hub.verify_token of Meta's subscription handshake; eBay presets: the verification token of eBay's endpoint validation */
            verify_token?: string;
            /** @description deduplication on the provider's delivery id (docs/ingest.md "Provider delivery ids"); on by default for presets with an id */
            dedup?: {
                enabled?: boolean;
                window_seconds?: number;
            };
            custom?: components["schemas"]["CustomHmac"];
        };
        InboundAuthViewNone: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "NONE";
        };
        InboundAuthViewBasic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "BASIC";
            credentials: {
                username: string;
                password: components["schemas"]["RedactedSecret"];
            }[];
        };
        InboundAuthViewBearer: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "BEARER";
            tokens: components["schemas"]["RedactedSecret"][];
        };
        InboundAuthViewApiKey: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "API_KEY";
            header: string;
            keys: components["schemas"]["RedactedSecret"][];
        };
        InboundAuthViewHmac: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "HMAC";
            /**
             * @description docs/inbound-auth.md lists each preset
             * @enum {string}
             */
            preset: "github" | "stripe" | "slack" | "shopify" | "twilio" | "standard_webhooks" | "svix" | "zoom" | "paddle" | "square" | "linear" | "gitlab" | "discord" | "acuity" | "aftership" | "agora" | "airtable" | "airwallex" | "alchemy" | "asana" | "auth0" | "authorize_net" | "aws_sns" | "bitbucket" | "bolt" | "box" | "brex" | "btcpay" | "buildkite" | "cal_com" | "calendly" | "checkout_com" | "circleci" | "clerk" | "clickup" | "close" | "coinbase_commerce" | "convoy" | "cursor" | "customer_io" | "docusign" | "doppler" | "dropbox" | "dub" | "dwolla" | "easypost" | "ebay" | "ebay_sandbox" | "elevenlabs" | "expo" | "facebook" | "fastspring" | "flutterwave" | "forgejo" | "frame_io" | "gitea" | "gocardless" | "gogs" | "help_scout" | "heroku" | "hookdeck" | "hubspot" | "incident_io" | "instagram" | "intercom" | "jira" | "launchdarkly" | "lemon_squeezy" | "line" | "liveblocks" | "loops" | "mandrill" | "maxio" | "microsoft_graph" | "microsoft_teams" | "modern_treasury" | "mongodb_atlas" | "mux" | "notion" | "nylas" | "oncehub" | "onfido" | "openai" | "optimizely" | "orb" | "pagerduty" | "patreon" | "paypal" | "paystack" | "persona" | "polar" | "pulumi" | "pusher" | "quickbooks" | "razorpay" | "recurly" | "render" | "replicate" | "resend" | "revenuecat" | "revolut_business" | "ringcentral" | "sanity" | "segment" | "sendbird" | "sendgrid" | "sentry" | "snyk" | "storyblok" | "stream" | "tally" | "telegram" | "telnyx" | "terraform_cloud" | "thinkific" | "tiktok" | "todoist" | "trello" | "twitch" | "typeform" | "unit" | "vapi" | "vercel" | "viber" | "webex" | "webflow" | "websub" | "whatsapp" | "wise" | "woocommerce" | "workos" | "x" | "xero" | "zendesk" | "custom";
            secrets: components["schemas"]["RedactedSecret"][];
            tolerance_seconds?: number;
            verify_token?: components["schemas"]["RedactedSecret"];
            /** @description deduplication on the provider's delivery id (docs/ingest.md "Provider delivery ids"); on by default for presets with an id */
            dedup?: {
                enabled?: boolean;
                window_seconds?: number;
            };
            custom?: components["schemas"]["CustomHmac"];
        };
        /** @description docs/inbound-auth.md. Secrets in clear, or `{ "keep": <slot> }`. */
        InboundAuthInput: components["schemas"]["InboundAuthInputNone"] | components["schemas"]["InboundAuthInputBasic"] | components["schemas"]["InboundAuthInputBearer"] | components["schemas"]["InboundAuthInputApiKey"] | components["schemas"]["InboundAuthInputHmac"];
        /** @description Secrets shown as `{ "set": true, "last4"? }`. */
        InboundAuthView: components["schemas"]["InboundAuthViewNone"] | components["schemas"]["InboundAuthViewBasic"] | components["schemas"]["InboundAuthViewBearer"] | components["schemas"]["InboundAuthViewApiKey"] | components["schemas"]["InboundAuthViewHmac"];
        /** @description Only `name` is required; every other setting has its default. */
        EndpointCreate: {
            /** @description trimmed */
            name: string;
            /** @description POST, PUT, PATCH, DELETE, GET, HEAD; case-insensitive, stored once each in that order */
            methods?: string[];
            /** @enum {string} */
            payload_format?: "json" | "form" | "xml" | "text" | "none" | "query" | "query_base64_json";
            /** @description Base64 JSON only: the query parameter holding the payload */
            query_param_name?: string | null;
            /** @description Base64 JSON only */
            query_param_required?: boolean;
            inbound_auth?: components["schemas"]["InboundAuthInput"];
            required_headers?: {
                name: string;
                /** @description without a value only the header must be present */
                value?: string;
            }[];
            body_filters?: ({
                /** @enum {string} */
                kind: "contains" | "not_contains" | "equals";
                value: string;
                case_insensitive?: boolean;
            } | {
                /** @enum {string} */
                kind: "regex" | "not_regex";
                /** @description an RE2 pattern */
                pattern: string;
                case_insensitive?: boolean;
            })[];
            field_rules?: {
                /** @description a dotted path into the payload, e.g. `order.id` */
                path: string;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean" | "object" | "array";
                required?: boolean;
                /** @description an RE2 pattern */
                pattern?: string;
            }[];
            contracts?: components["schemas"]["PayloadContracts"] | null;
            /** @description a list left out is empty; deny wins */
            ip_access?: {
                allow?: string[];
                deny?: string[];
            };
            captcha?: {
                /** @enum {string} */
                provider: "hcaptcha" | "recaptcha" | "turnstile";
                secret: string | components["schemas"]["KeepSecret"];
                verify_url?: string;
                field?: string;
            } | null;
            /** @description null: the default, 600 */
            rate_limit_per_minute?: number | null;
            enabled?: boolean;
            /** @description the manual pause */
            paused?: boolean;
            maintenance_windows?: {
                /** @description ISO 8601 date-time with a zone */
                starts_at: string;
                /** @description after starts_at */
                ends_at: string;
            }[];
            /** @description read-only: refused in a request */
            readonly id?: unknown;
            /** @description read-only: refused in a request */
            readonly account_id?: unknown;
            /** @description read-only: refused in a request */
            readonly ingest_url?: unknown;
            /** @description read-only: refused in a request */
            readonly availability?: unknown;
            /** @description read-only: refused in a request */
            readonly revision?: unknown;
            /** @description read-only: refused in a request */
            readonly created_at?: unknown;
            /** @description read-only: refused in a request */
            readonly updated_at?: unknown;
        };
        /** @description Each setting sent replaces the stored one as a whole. */
        EndpointPatch: {
            /** @description trimmed */
            name?: string;
            /** @description POST, PUT, PATCH, DELETE, GET, HEAD; case-insensitive, stored once each in that order */
            methods?: string[];
            /** @enum {string} */
            payload_format?: "json" | "form" | "xml" | "text" | "none" | "query" | "query_base64_json";
            /** @description Base64 JSON only: the query parameter holding the payload */
            query_param_name?: string | null;
            /** @description Base64 JSON only */
            query_param_required?: boolean;
            inbound_auth?: components["schemas"]["InboundAuthInput"];
            required_headers?: {
                name: string;
                /** @description without a value only the header must be present */
                value?: string;
            }[];
            body_filters?: ({
                /** @enum {string} */
                kind: "contains" | "not_contains" | "equals";
                value: string;
                case_insensitive?: boolean;
            } | {
                /** @enum {string} */
                kind: "regex" | "not_regex";
                /** @description an RE2 pattern */
                pattern: string;
                case_insensitive?: boolean;
            })[];
            field_rules?: {
                /** @description a dotted path into the payload, e.g. `order.id` */
                path: string;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean" | "object" | "array";
                required?: boolean;
                /** @description an RE2 pattern */
                pattern?: string;
            }[];
            contracts?: components["schemas"]["PayloadContracts"] | null;
            /** @description a list left out is empty; deny wins */
            ip_access?: {
                allow?: string[];
                deny?: string[];
            };
            captcha?: {
                /** @enum {string} */
                provider: "hcaptcha" | "recaptcha" | "turnstile";
                secret: string | components["schemas"]["KeepSecret"];
                verify_url?: string;
                field?: string;
            } | null;
            /** @description null: the default, 600 */
            rate_limit_per_minute?: number | null;
            enabled?: boolean;
            /** @description the manual pause */
            paused?: boolean;
            maintenance_windows?: {
                /** @description ISO 8601 date-time with a zone */
                starts_at: string;
                /** @description after starts_at */
                ends_at: string;
            }[];
            /** @description read-only: refused in a request */
            readonly id?: unknown;
            /** @description read-only: refused in a request */
            readonly account_id?: unknown;
            /** @description read-only: refused in a request */
            readonly ingest_url?: unknown;
            /** @description read-only: refused in a request */
            readonly availability?: unknown;
            /** @description read-only: refused in a request */
            readonly revision?: unknown;
            /** @description read-only: refused in a request */
            readonly created_at?: unknown;
            /** @description read-only: refused in a request */
            readonly updated_at?: unknown;
        };
        Endpoint: {
            /** @description `ep_…` */
            id: string;
            name: string;
            /** @description {PUBLIC_BASE_URL}/relay/<id> */
            ingest_url: string;
            enabled: boolean;
            /** @description the manual pause only */
            paused: boolean;
            /** @description What the ingest URL does right now (computed, not stored). */
            availability: {
                /** @constant */
                state: "enabled";
            } | {
                /** @constant */
                state: "disabled";
            } | {
                /** @constant */
                state: "paused";
                /** @enum {string} */
                paused_by: "manual" | "maintenance_window";
                /**
                 * Format: date-time
                 * @description the end of the active window(s); null for a manual pause
                 */
                resumes_at: string | null;
            };
            methods: ("POST" | "PUT" | "PATCH" | "DELETE" | "GET" | "HEAD")[];
            /** @enum {string} */
            payload_format: "json" | "form" | "xml" | "text" | "none" | "query" | "query_base64_json";
            query_param_name: string | null;
            query_param_required: boolean;
            inbound_auth: components["schemas"]["InboundAuthView"];
            required_headers: {
                name: string;
                /** @description without a value only the header must be present */
                value?: string;
            }[];
            body_filters: ({
                /** @enum {string} */
                kind: "contains" | "not_contains" | "equals";
                value: string;
                case_insensitive?: boolean;
            } | {
                /** @enum {string} */
                kind: "regex" | "not_regex";
                /** @description an RE2 pattern */
                pattern: string;
                case_insensitive?: boolean;
            })[];
            field_rules: {
                /** @description a dotted path into the payload, e.g. `order.id` */
                path: string;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean" | "object" | "array";
                required?: boolean;
                /** @description an RE2 pattern */
                pattern?: string;
            }[];
            contracts: components["schemas"]["PayloadContracts"] | null;
            ip_access: {
                allow: string[];
                deny: string[];
            };
            captcha: {
                /** @enum {string} */
                provider: "hcaptcha" | "recaptcha" | "turnstile";
                secret: components["schemas"]["RedactedSecret"];
                verify_url?: string;
                field?: string;
            } | null;
            rate_limit_per_minute: number | null;
            maintenance_windows: {
                /** @description ISO 8601 date-time with a zone */
                starts_at: string;
                /** @description after starts_at */
                ends_at: string;
            }[];
            /** @description bumped by every change */
            revision: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        EndpointList: {
            data: components["schemas"]["Endpoint"][];
        };
        EndpointAuditPage: {
            data: components["schemas"]["AuditRow"][];
            /**
             * Format: date-time
             * @description pass as `before` for the next page; null on the last
             */
            next_before: string | null;
        };
        /** @description JSON Schemas the payload is checked with, per event type (docs/contracts.md). */
        PayloadContracts: {
            event_type: {
                /** @enum {string} */
                from: "path" | "header";
            } & ({
                /** @constant */
                from: "path";
                /**
                 * @description dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number
                 * @example data.id
                 */
                path: string;
            } | {
                /** @constant */
                from: "header";
                /**
                 * @description a header of the sender’s request; stored lower-cased
                 * @example X-Order-Key
                 */
                header: string;
            });
            /**
             * @description `refuse`: a failing payload is answered 400 `contract_violation` and kept in quarantine; `mark`: accepted, its row carries `contract_violation`
             * @enum {string}
             */
            mode: "refuse" | "mark";
            schemas: {
                /** @description the event type value the schema is for; `*`: any type no other entry names, and events without one */
                event_type: string;
                /** @description a JSON Schema (2020-12) as JSON text, at most 32768 bytes; `pattern` and `patternProperties` use RE2 syntax */
                schema: string;
            }[];
        };
        ContractError: {
            /** @description a JSON Pointer into the payload (`/` its root) */
            path: string;
            /** @description what failed; never the value or the pattern */
            message: string;
        };
        /** @description `contracts`: a draft to try instead of the saved setting. */
        ContractValidate: {
            /** @description request headers, for an event type read from a header */
            headers?: {
                [key: string]: string;
            };
            /** @description the payload as the endpoint parses it (a JSON value) */
            body: unknown;
            contracts?: components["schemas"]["PayloadContracts"];
        };
        ContractValidation: {
            valid: boolean;
            /** @description the event type read from the payload or header; null: none */
            event_type: string | null;
            /** @description the schema entry applied (its `event_type`); null: none applies */
            schema: string | null;
            errors: components["schemas"]["ContractError"][];
            /** @description more than 10 errors were found */
            truncated: boolean;
        };
        TargetCreate: {
            /** @enum {string} */
            kind: "webhook" | "embed_chat" | "block_chat" | "email" | "spreadsheet" | "telegram" | "teams" | "cli" | "redis_stream" | "amqp_exchange" | "mqtt" | "nats_jetstream" | "sqs" | "s3" | "kafka";
            /** @description trimmed */
            name: string;
            /** @description default true */
            enabled?: boolean;
            /** @description the kind's settings (WebhookConfigInput, EmbedChatConfigInput, BlockChatConfigInput, EmailConfigInput, SpreadsheetConfigInput, TelegramConfigInput, TeamsConfigInput, CliConfigInput, RedisStreamConfigInput, AmqpExchangeConfigInput, MqttConfigInput, NatsJetstreamConfigInput, SqsConfigInput, S3ConfigInput, KafkaConfigInput by `kind`); each problem is named `config.<field>` */
            config: Record<string, unknown>;
            /** @description delays between attempts in ms; `[]` no retries; null the kind’s default (docs/delivery.md) */
            retry_schedule_ms?: number[] | null;
            /** @description how fast this target is sent to, across every deliverer; unset: the kind’s default (a chat platform’s published limit; none for webhooks) — docs/delivery-limits.md; null: the kind’s default */
            limits?: {
                rate?: number | null;
                per?: ("second" | "minute") | null;
                max_in_flight?: number | null;
            } | null;
            /** @description when to stop sending to a failing target and hold its deliveries; unset: the defaults (docs/delivery-limits.md); null: the defaults */
            breaker?: {
                failure_rate_pct?: number | null;
                min_attempts?: number | null;
                window_s?: number | null;
                cool_down_s?: number | null;
                flag_after_open_s?: number | null;
            } | null;
            /** @description which events the target gets (docs/routing.md); null: every event. Refused with 400 `routing` when the endpoint’s payload format has no fields (text, none) */
            routing?: {
                match?: ("all" | "any") | null;
                rules: ({
                    /** @enum {string} */
                    kind: "equals" | "one_of" | "contains" | "not_contains" | "regex" | "not_regex" | "exists" | "not_exists" | "gt" | "gte" | "lt" | "lte";
                } & ({
                    /** @constant */
                    kind: "equals";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "one_of";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    values: string[];
                } | {
                    /** @constant */
                    kind: "contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "not_contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "not_regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "not_exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "gt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "gte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                }))[];
            } | null;
            /** @description events with the same key delivered one after another in acceptance order (docs/ordering.md); null: no ordering. Refused with 400 `ordering` on a kind that does not support it, and for a payload field when the endpoint’s payload format has no fields */
            ordering?: {
                key: {
                    /** @enum {string} */
                    from: "path" | "header";
                } & ({
                    /** @constant */
                    from: "path";
                    /**
                     * @description dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number
                     * @example data.id
                     */
                    path: string;
                } | {
                    /** @constant */
                    from: "header";
                    /**
                     * @description a header of the sender’s request; stored lower-cased
                     * @example X-Order-Key
                     */
                    header: string;
                });
            } | null;
            /** @description read-only: refused in a request */
            readonly id?: unknown;
            /** @description read-only: refused in a request */
            readonly account_id?: unknown;
            /** @description read-only: refused in a request */
            readonly endpoint_id?: unknown;
            /** @description read-only: refused in a request */
            readonly flagged?: unknown;
            /** @description read-only: refused in a request */
            readonly default_retry_schedule_ms?: unknown;
            /** @description read-only: refused in a request */
            readonly default_limits?: unknown;
            /** @description read-only: refused in a request */
            readonly breaker_state?: unknown;
            /** @description read-only: refused in a request */
            readonly created_at?: unknown;
            /** @description read-only: refused in a request */
            readonly updated_at?: unknown;
        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
        TargetPatch: {
            /** @description trimmed */
            name?: string;
            enabled?: boolean;
            /** @description delays between attempts in ms; `[]` no retries; null the kind’s default (docs/delivery.md) */
            retry_schedule_ms?: number[] | null;
            /** @description how fast this target is sent to, across every deliverer; unset: the kind’s default (a chat platform’s published limit; none for webhooks) — docs/delivery-limits.md; null: the kind’s default */
            limits?: {
                rate?: number | null;
                per?: ("second" | "minute") | null;
                max_in_flight?: number | null;
            } | null;
            /** @description when to stop sending to a failing target and hold its deliveries; unset: the defaults (docs/delivery-limits.md); null: the defaults */
            breaker?: {
                failure_rate_pct?: number | null;
                min_attempts?: number | null;
                window_s?: number | null;
                cool_down_s?: number | null;
                flag_after_open_s?: number | null;
            } | null;
            /** @description which events the target gets (docs/routing.md); null: every event. Refused with 400 `routing` when the endpoint’s payload format has no fields (text, none) */
            routing?: {
                match?: ("all" | "any") | null;
                rules: ({
                    /** @enum {string} */
                    kind: "equals" | "one_of" | "contains" | "not_contains" | "regex" | "not_regex" | "exists" | "not_exists" | "gt" | "gte" | "lt" | "lte";
                } & ({
                    /** @constant */
                    kind: "equals";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "one_of";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    values: string[];
                } | {
                    /** @constant */
                    kind: "contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "not_contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "not_regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean | null;
                } | {
                    /** @constant */
                    kind: "exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "not_exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "gt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "gte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                }))[];
            } | null;
            /** @description events with the same key delivered one after another in acceptance order (docs/ordering.md); null: no ordering. Refused with 400 `ordering` on a kind that does not support it, and for a payload field when the endpoint’s payload format has no fields */
            ordering?: {
                key: {
                    /** @enum {string} */
                    from: "path" | "header";
                } & ({
                    /** @constant */
                    from: "path";
                    /**
                     * @description dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number
                     * @example data.id
                     */
                    path: string;
                } | {
                    /** @constant */
                    from: "header";
                    /**
                     * @description a header of the sender’s request; stored lower-cased
                     * @example X-Order-Key
                     */
                    header: string;
                });
            } | null;
            /** @description cannot be changed: a new kind is a new target */
            kind?: unknown;
            /** @description cannot be changed: a new config is a new target */
            config?: unknown;
            /** @description read-only: refused in a request */
            readonly id?: unknown;
            /** @description read-only: refused in a request */
            readonly account_id?: unknown;
            /** @description read-only: refused in a request */
            readonly endpoint_id?: unknown;
            /** @description read-only: refused in a request */
            readonly flagged?: unknown;
            /** @description read-only: refused in a request */
            readonly default_retry_schedule_ms?: unknown;
            /** @description read-only: refused in a request */
            readonly default_limits?: unknown;
            /** @description read-only: refused in a request */
            readonly breaker_state?: unknown;
            /** @description read-only: refused in a request */
            readonly created_at?: unknown;
            /** @description read-only: refused in a request */
            readonly updated_at?: unknown;
        };
        Target: {
            /** @description `tg_…` */
            id: string;
            account_id: string;
            endpoint_id: string;
            /** @enum {string} */
            kind: "webhook" | "embed_chat" | "block_chat" | "email" | "spreadsheet" | "telegram" | "teams" | "cli" | "redis_stream" | "amqp_exchange" | "mqtt" | "nats_jetstream" | "sqs" | "s3" | "kafka";
            name: string;
            enabled: boolean;
            /** @description the kind's settings as shown, every secret masked (WebhookConfigView, EmbedChatConfigView, BlockChatConfigView, EmailConfigView, SpreadsheetConfigView, TelegramConfigView, TeamsConfigView, CliConfigView, RedisStreamConfigView, AmqpExchangeConfigView, MqttConfigView, NatsJetstreamConfigView, SqsConfigView, S3ConfigView, KafkaConfigView by `kind`) */
            config: Record<string, unknown>;
            /** @description set when deliveries showed the destination is gone (docs/delivery.md "Flagged targets") */
            flagged: {
                reason: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description delays between attempts in ms; `[]` no retries; null the kind’s default (docs/delivery.md) */
            retry_schedule_ms: number[] | null;
            routing: {
                /** @enum {string} */
                match: "all" | "any";
                rules: ({
                    /** @constant */
                    kind: "equals";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean;
                } | {
                    /** @constant */
                    kind: "one_of";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    values: string[];
                } | {
                    /** @constant */
                    kind: "contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean;
                } | {
                    /** @constant */
                    kind: "not_contains";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example order.paid */
                    value: string;
                    case_insensitive?: boolean;
                } | {
                    /** @constant */
                    kind: "regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean;
                } | {
                    /** @constant */
                    kind: "not_regex";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /**
                     * @description RE2 syntax: linear-time matching, no lookaround or backreferences
                     * @example ^order\.
                     */
                    pattern: string;
                    case_insensitive?: boolean;
                } | {
                    /** @constant */
                    kind: "exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "not_exists";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                } | {
                    /** @constant */
                    kind: "gt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "gte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lt";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                } | {
                    /** @constant */
                    kind: "lte";
                    /**
                     * @description dot-separated field names of the parsed payload, as in field validation rules (data.object.status)
                     * @example type
                     */
                    path: string;
                    /** @example 100 */
                    value: number;
                })[];
            } | null;
            ordering: {
                key: {
                    /** @constant */
                    from: "path";
                    /**
                     * @description dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number
                     * @example data.id
                     */
                    path: string;
                } | {
                    /** @constant */
                    from: "header";
                    /**
                     * @description a header of the sender’s request; stored lower-cased
                     * @example X-Order-Key
                     */
                    header: string;
                };
            } | null;
            default_retry_schedule_ms: number[] | null;
            /** @description Delivery limits */
            limits: {
                rate: number | null;
                /** @enum {string} */
                per: "second" | "minute";
                max_in_flight: number | null;
            } | null;
            /** @description Delivery limits */
            default_limits: {
                rate: number | null;
                /** @enum {string} */
                per: "second" | "minute";
                max_in_flight: number | null;
            } | null;
            /** @description Circuit breaker */
            breaker: {
                failure_rate_pct: number;
                /** @description attempts in the window before the rate counts */
                min_attempts: number;
                window_s: number;
                /** @description how long it stays open before one probe is let through */
                cool_down_s: number;
                /** @description a breaker open this long flags the target (as a 410 does) */
                flag_after_open_s: number;
            } | null;
            /** @description the circuit breaker: closed (sending), open (failing: held, a probe after the cool-down), half_open (one probe out), paused (by hand); since when and why (docs/delivery-limits.md) */
            breaker_state: {
                /** @enum {string} */
                state: "closed" | "open" | "half_open" | "paused";
                /** Format: date-time */
                since: string;
                reason: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown);
        TargetList: {
            data: components["schemas"]["Target"][];
        };
        HeldKeyList: {
            ordering: {
                key: {
                    /** @constant */
                    from: "path";
                    /**
                     * @description dot-separated field names of the parsed payload, as in routing rules (data.order.id); a string or number
                     * @example data.id
                     */
                    path: string;
                } | {
                    /** @constant */
                    from: "header";
                    /**
                     * @description a header of the sender’s request; stored lower-cased
                     * @example X-Order-Key
                     */
                    header: string;
                };
            } | null;
            data: {
                /** @description the ordering key */
                key: string;
                /**
                 * Format: date-time
                 * @description when its head first waited
                 */
                since: string;
                /** @description the event at its head */
                event_id: string;
                /** @description the head’s next attempt */
                attempt: number;
                /** @description `retrying` (its attempt failed) or the target gate’s hold reason */
                reason: string;
                /** @description waited longer than ORDERING_STUCK_AFTER_MS */
                stuck: boolean;
            }[];
        };
        /** @description Webhook URL */
        WebhookConfigInput: {
            /**
             * @description http(s) URL; https only while Enforce HTTPS is on
             * @example https://hooks.example.com/in
             */
            url: string;
            enforce_https?: boolean | null;
            auth?: ({
                /** @enum {string} */
                type: "none" | "bearer" | "api_key" | "basic";
            } & ({
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "bearer";
                token: string;
            } | {
                /** @constant */
                type: "api_key";
                /** @example X-Api-Key */
                header: string;
                key: string;
            } | {
                /** @constant */
                type: "basic";
                username: string;
                password: string;
            })) | null;
            custom_headers?: {
                name: string;
                /** @description may use template variables, e.g. {{originating_ip}}, {{uuid}} */
                value: string;
                sensitive?: boolean | null;
            }[] | null;
            forward_headers?: ({
                /** @enum {string} */
                mode: "none" | "all" | "list";
            } & ({
                /** @constant */
                mode: "none";
            } | {
                /** @constant */
                mode: "all";
            } | {
                /** @constant */
                mode: "list";
                /** @description A listed header the request lacks is skipped. */
                names: string[];
            })) | null;
            signing?: {
                standard_webhooks: boolean;
                /** @description "whsec_" + base64 of 24–64 bytes */
                secret: string;
            } | null;
            tls?: {
                client_certificate_pem?: string | null;
                client_key_pem?: string | null;
                ca_pem?: string | null;
            } | null;
        };
        /** @description Webhook URL */
        WebhookConfigView: {
            /**
             * @description http(s) URL; https only while Enforce HTTPS is on
             * @example https://hooks.example.com/in
             */
            url: string;
            /** @description when on, a target URL that is not HTTPS is rejected */
            enforce_https: boolean;
            auth: {
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "bearer";
                /**
                 * @description Token: set; never returned
                 * @constant
                 */
                token: "[redacted]";
            } | {
                /** @constant */
                type: "api_key";
                /** @example X-Api-Key */
                header: string;
                /**
                 * @description Key: set; never returned
                 * @constant
                 */
                key: "[redacted]";
            } | {
                /** @constant */
                type: "basic";
                username: string;
                /**
                 * @description Password: set; never returned
                 * @constant
                 */
                password: "[redacted]";
            };
            custom_headers: {
                name: string;
                /** @description Value; `[redacted]` when `sensitive` is true */
                value: string;
                /** @description stored sealed and shown as set; credential-like headers always are */
                sensitive?: boolean;
            }[];
            forward_headers: {
                /** @constant */
                mode: "none";
            } | {
                /** @constant */
                mode: "all";
            } | {
                /** @constant */
                mode: "list";
                names: string[];
            };
            signing: {
                standard_webhooks: boolean;
                /**
                 * @description Signing secret: set; never returned
                 * @constant
                 */
                secret: "[redacted]";
            } | null;
            tls: {
                /**
                 * @description the leaf first, then any intermediates; an expired certificate is refused
                 * @example -----BEGIN CERTIFICATE-----…
                 */
                client_certificate_pem?: string;
                /**
                 * @description Client private key (PEM): set; never returned
                 * @constant
                 */
                client_key_pem?: "[redacted]";
                /**
                 * @description when set, only these CA certificates are trusted for the receiver's certificate
                 * @example -----BEGIN CERTIFICATE-----…
                 */
                ca_pem?: string;
            } | null;
        };
        /** @description Embed-style chat webhook (Discord-like) */
        EmbedChatConfigInput: {
            /** @description https://discord.com/api/webhooks/{id}/{token}, optionally ?thread_id=; a secret: stored sealed, shown masked */
            url: string;
            name?: string;
            template?: string | null;
            tts?: boolean | null;
        };
        /** @description Embed-style chat webhook (Discord-like) */
        EmbedChatConfigView: {
            /** @description Chat webhook URL, masked: what it holds is never returned */
            url: string;
            name: string;
            /** @description {{path.to.field}} over the payload; empty: the payload as is */
            template?: string;
            /** @description used when the payload has no boolean tts */
            tts?: boolean;
        };
        /** @description Block-style chat webhook (Slack-like) */
        BlockChatConfigInput: {
            /** @description https://hooks.slack.com/services/<path> or https://hooks.slack-gov.com/services/<path>; a secret: stored sealed, shown masked */
            url: string;
            name?: string;
            template?: string | null;
            markup?: boolean | null;
        };
        /** @description Block-style chat webhook (Slack-like) */
        BlockChatConfigView: {
            /** @description Chat webhook URL, masked: what it holds is never returned */
            url: string;
            name: string;
            /** @description {{path.to.field}} over the payload; empty: the payload as is */
            template?: string;
            /** @description mrkdwn formatting of the message; off sends mrkdwn: false */
            markup: boolean;
        };
        /** @description Email */
        EmailConfigInput: {
            /**
             * @description one address or more; at most 50 across to, cc and bcc
             * @example [
             *       "ops@example.com"
             *     ]
             */
            to: string[];
            cc?: string[] | null;
            bcc?: string[] | null;
            subject?: string | null;
            reply_to?: string | null;
        };
        /** @description Email */
        EmailConfigView: {
            to: string[];
            cc: string[];
            bcc: string[];
            /**
             * @description {{path.to.field}} over the payload; empty: "Relay: new event"
             * @example New order {{order.id}}
             */
            subject: string;
            /**
             * Format: email
             * @example support@example.com
             */
            reply_to?: string;
        };
        /** @description Spreadsheet (Google Sheets) */
        SpreadsheetConfigInput: {
            /** @example 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms */
            spreadsheet_id: string;
            sheet_name?: string | null;
            /** @description the JSON key file of a Google service account; a secret: stored sealed, never shown */
            service_account_key: string;
        };
        /** @description Spreadsheet (Google Sheets) */
        SpreadsheetConfigView: {
            /** @example 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms */
            spreadsheet_id: string;
            /** @example Leads */
            sheet_name: string;
            /**
             * @description Service account key (JSON): set; never returned
             * @constant
             */
            service_account_key: "[redacted]";
        };
        /** @description Telegram bot message */
        TelegramConfigInput: {
            /** @description from @BotFather; a secret: stored sealed, never shown */
            bot_token: string;
            /**
             * @description a numeric chat id (groups and channels are negative) or a public channel’s @username; the bot must be a member
             * @example -1001234567890
             */
            chat_id: string;
            name?: string;
            template?: string | null;
            parse_mode?: ("none" | "HTML" | "MarkdownV2") | null;
            disable_notification?: boolean | null;
        };
        /** @description Telegram bot message */
        TelegramConfigView: {
            /**
             * @description Bot token: set; never returned
             * @constant
             */
            bot_token: "[redacted]";
            /**
             * @description a numeric chat id (groups and channels are negative) or a public channel’s @username; the bot must be a member
             * @example -1001234567890
             */
            chat_id: string;
            name: string;
            /** @description {{path.to.field}} over the payload; empty: the payload as is */
            template?: string;
            /**
             * @description how Telegram reads the text; values from the payload are escaped for it
             * @enum {string}
             */
            parse_mode: "none" | "HTML" | "MarkdownV2";
            /** @description members get the message without sound */
            disable_notification: boolean;
        };
        /** @description Microsoft Teams (Workflows webhook) */
        TeamsConfigInput: {
            /** @description the whole HTTP POST URL of the trigger; a secret: stored sealed, shown masked */
            url: string;
            name?: string;
            template?: string | null;
            format?: ("adaptive_card" | "text") | null;
        };
        /** @description Microsoft Teams (Workflows webhook) */
        TeamsConfigView: {
            /** @description Workflows webhook URL, masked: what it holds is never returned */
            url: string;
            name: string;
            /** @description {{path.to.field}} over the payload; empty: the payload as is */
            template?: string;
            /**
             * @description an Adaptive Card (what the Workflows templates post), or {"text": …} for a flow or legacy webhook that reads text
             * @enum {string}
             */
            format: "adaptive_card" | "text";
        };
        /** @description CLI session (relay listen) */
        CliConfigInput: {
            in_flight?: number | null;
            mirror_percent?: number | null;
        };
        /** @description CLI session (relay listen) */
        CliConfigView: {
            /** @description how many deliveries one listening CLI holds unanswered at once (1–50) */
            in_flight: number;
            /** @description set: the target is a mirror (relay listen --mirror) that receives this share of the endpoint's events, chosen by event id; unset: every event (1–100) */
            mirror_percent?: number;
        };
        /** @description Redis Streams (XADD) */
        RedisStreamConfigInput: {
            /** @description redis:// or rediss:// (TLS) with the password (and ACL user); a secret: stored sealed, never shown */
            url: string;
            /** @example webhooks:stripe */
            stream: string;
            max_length?: number | null;
        };
        /** @description Redis Streams (XADD) */
        RedisStreamConfigView: {
            /**
             * @description Redis URL: set; never returned
             * @constant
             */
            url: "[redacted]";
            /** @example webhooks:stripe */
            stream: string;
            /** @description entries kept, trimmed approximately as each is added; 0 = never trimmed */
            max_length: number;
        };
        /** @description RabbitMQ exchange (AMQP 0-9-1) */
        AmqpExchangeConfigInput: {
            /** @description amqp:// or amqps:// (TLS) with user, password and virtual host; a secret: stored sealed, never shown */
            url: string;
            /**
             * @description an exchange that exists on the broker; Relay does not declare it
             * @example webhooks
             */
            exchange: string;
            routing_key?: string | null;
        };
        /** @description RabbitMQ exchange (AMQP 0-9-1) */
        AmqpExchangeConfigView: {
            /**
             * @description AMQP URL: set; never returned
             * @constant
             */
            url: "[redacted]";
            /**
             * @description an exchange that exists on the broker; Relay does not declare it
             * @example webhooks
             */
            exchange: string;
            /**
             * @description {{path.to.field}} over the payload; at most 255 bytes once rendered
             * @example orders.{{type}}
             */
            routing_key: string;
        };
        /** @description MQTT topic (3.1.1, 5) */
        MqttConfigInput: {
            /** @description mqtt:// or mqtts:// (TLS) with user and password; a secret: stored sealed, never shown */
            url: string;
            /**
             * @description {{path.to.field}} over the payload; no + or #, not starting with $, at most 65,535 bytes
             * @example webhooks/{{type}}
             */
            topic: string;
            protocol_version?: number | null;
        };
        /** @description MQTT topic (3.1.1, 5) */
        MqttConfigView: {
            /**
             * @description Broker URL: set; never returned
             * @constant
             */
            url: "[redacted]";
            /**
             * @description {{path.to.field}} over the payload; no + or #, not starting with $, at most 65,535 bytes
             * @example webhooks/{{type}}
             */
            topic: string;
            /** @description 5 = MQTT 5.0 (ids as user properties); 4 = MQTT 3.1.1 (the body only) */
            protocol_version: number;
        };
        /** @description NATS JetStream */
        NatsJetstreamConfigInput: {
            /**
             * @description tried in order; tls:// verifies the certificate against the host name; no credentials here
             * @example [
             *       "tls://nats.example.com:4222"
             *     ]
             */
            servers: string[];
            /**
             * @description {{path.to.field}} over the payload; a stream must capture it; no * or >, spaces or empty tokens
             * @example webhooks.orders.{{type}}
             */
            subject: string;
            auth?: ({
                /** @enum {string} */
                type: "none" | "user_password" | "token" | "nkey" | "creds";
            } & ({
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "user_password";
                user: string;
                password: string;
            } | {
                /** @constant */
                type: "token";
                token: string;
            } | {
                /** @constant */
                type: "nkey";
                seed: string;
            } | {
                /** @constant */
                type: "creds";
                creds: string;
            })) | null;
        };
        /** @description NATS JetStream */
        NatsJetstreamConfigView: {
            servers: string[];
            /**
             * @description {{path.to.field}} over the payload; a stream must capture it; no * or >, spaces or empty tokens
             * @example webhooks.orders.{{type}}
             */
            subject: string;
            auth: {
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "user_password";
                user: string;
                /**
                 * @description Password: set; never returned
                 * @constant
                 */
                password: "[redacted]";
            } | {
                /** @constant */
                type: "token";
                /**
                 * @description Token: set; never returned
                 * @constant
                 */
                token: "[redacted]";
            } | {
                /** @constant */
                type: "nkey";
                /**
                 * @description NKey seed: set; never returned
                 * @constant
                 */
                seed: "[redacted]";
            } | {
                /** @constant */
                type: "creds";
                /**
                 * @description Credentials (.creds file): set; never returned
                 * @constant
                 */
                creds: "[redacted]";
            };
        };
        /** @description Amazon SQS queue */
        SqsConfigInput: {
            /**
             * @description as SQS shows it; its host is the endpoint Relay calls, so an SQS-compatible server works too. A FIFO queue ends in .fifo
             * @example https://sqs.eu-west-1.amazonaws.com/123456789012/orders
             */
            queue_url: string;
            /**
             * @description the AWS region the requests are signed for (SigV4)
             * @example eu-west-1
             */
            region: string;
            /** @description of an IAM user or role allowed sqs:SendMessage on the queue; stored sealed, never shown */
            access_key_id: string;
            /** @description a secret: stored sealed, never shown */
            secret_access_key: string;
            message_group_id?: string | null;
        };
        /** @description Amazon SQS queue */
        SqsConfigView: {
            /**
             * @description as SQS shows it; its host is the endpoint Relay calls, so an SQS-compatible server works too. A FIFO queue ends in .fifo
             * @example https://sqs.eu-west-1.amazonaws.com/123456789012/orders
             */
            queue_url: string;
            /**
             * @description the AWS region the requests are signed for (SigV4)
             * @example eu-west-1
             */
            region: string;
            /**
             * @description Access key ID: set; never returned
             * @constant
             */
            access_key_id: "[redacted]";
            /**
             * @description Secret access key: set; never returned
             * @constant
             */
            secret_access_key: "[redacted]";
            /**
             * @description {{path.to.field}} over the payload; required for a FIFO queue, whose messages of one group are kept in order. Empty once rendered: the endpoint id
             * @example {{customer.id}}
             */
            message_group_id: string;
        };
        /** @description S3-compatible object storage */
        S3ConfigInput: {
            /**
             * @description the service's origin: AWS's regional endpoint or an S3-compatible server's
             * @example https://s3.eu-west-1.amazonaws.com
             */
            endpoint: string;
            /**
             * @description a bucket that exists; Relay does not create it
             * @example webhooks-archive
             */
            bucket: string;
            key_template?: string | null;
            /**
             * @description the AWS region the requests are signed for (SigV4)
             * @example eu-west-1
             */
            region: string;
            /** @description of an IAM user or role allowed s3:PutObject on the bucket; stored sealed, never shown */
            access_key_id: string;
            /** @description a secret: stored sealed, never shown */
            secret_access_key: string;
            path_style?: boolean | null;
        };
        /** @description S3-compatible object storage */
        S3ConfigView: {
            /**
             * @description the service's origin: AWS's regional endpoint or an S3-compatible server's
             * @example https://s3.eu-west-1.amazonaws.com
             */
            endpoint: string;
            /**
             * @description a bucket that exists; Relay does not create it
             * @example webhooks-archive
             */
            bucket: string;
            /**
             * @description must contain {{delivery_id}}; may use {{event_id}}, {{endpoint_id}} and {{date}} (YYYY-MM-DD, UTC)
             * @example webhooks/{{date}}/{{delivery_id}}.json
             */
            key_template: string;
            /**
             * @description the AWS region the requests are signed for (SigV4)
             * @example eu-west-1
             */
            region: string;
            /**
             * @description Access key ID: set; never returned
             * @constant
             */
            access_key_id: "[redacted]";
            /**
             * @description Secret access key: set; never returned
             * @constant
             */
            secret_access_key: "[redacted]";
            /** @description endpoint/bucket/key instead of bucket.endpoint/key; needed by most S3-compatible servers and for an IP address */
            path_style: boolean;
        };
        /** @description Apache Kafka topic */
        KafkaConfigInput: {
            /** @description host:port, at most 16; the client finds the rest of the cluster from them */
            brokers: string[];
            /**
             * @description a topic that exists (Relay does not create it unless the cluster auto-creates topics)
             * @example webhooks
             */
            topic: string;
            key_path?: string | null;
            sasl?: ({
                /** @enum {string} */
                mechanism: "none" | "plain" | "scram-sha-256" | "scram-sha-512";
            } & ({
                /** @constant */
                mechanism: "none";
            } | {
                /** @constant */
                mechanism: "plain";
                username: string;
                /** @description a secret: stored sealed, shown as set, never returned */
                password: string;
            } | {
                /** @constant */
                mechanism: "scram-sha-256";
                username: string;
                /** @description a secret: stored sealed, shown as set, never returned */
                password: string;
            } | {
                /** @constant */
                mechanism: "scram-sha-512";
                username: string;
                /** @description a secret: stored sealed, shown as set, never returned */
                password: string;
            })) | null;
            tls?: boolean | null;
        };
        /** @description Apache Kafka topic */
        KafkaConfigView: {
            brokers: string[];
            /**
             * @description a topic that exists (Relay does not create it unless the cluster auto-creates topics)
             * @example webhooks
             */
            topic: string;
            /**
             * @description a dotted path into the JSON payload whose value is each record's key; empty or absent in the payload = no key
             * @example customer.id
             */
            key_path: string;
            sasl: {
                /** @constant */
                mechanism: "none";
            } | {
                /** @constant */
                mechanism: "plain";
                username: string;
                /**
                 * @description Password: set; never returned
                 * @constant
                 */
                password: "[redacted]";
            } | {
                /** @constant */
                mechanism: "scram-sha-256";
                username: string;
                /**
                 * @description Password: set; never returned
                 * @constant
                 */
                password: "[redacted]";
            } | {
                /** @constant */
                mechanism: "scram-sha-512";
                username: string;
                /**
                 * @description Password: set; never returned
                 * @constant
                 */
                password: "[redacted]";
            };
            /** @description when on, the brokers' certificates are verified against their host names */
            tls: boolean;
        };
        TransformationVersion: {
            version: number;
            /** @description the prefix of the API key that saved it */
            saved_by: string;
            saved_by_name: string | null;
            /** Format: date-time */
            saved_at: string;
            /** @description the version this one restored */
            restored_from: number | null;
            /** @description JavaScript: a function `(request, context) => request | null` (docs/transformations.md) */
            code: string;
        };
        Transformation: {
            /** @enum {string} */
            scope: "endpoint" | "target";
            scope_id: string;
            /** @description what runs; null: none (removed, or never saved) */
            active_version: number | null;
            /** @description JavaScript: a function `(request, context) => request | null` (docs/transformations.md) */
            code: string | null;
            latest_version: number;
            /** @description kept versions, newest first */
            versions: {
                version: number;
                /** @description the prefix of the API key that saved it */
                saved_by: string;
                saved_by_name: string | null;
                /** Format: date-time */
                saved_at: string;
                /** @description the version this one restored */
                restored_from: number | null;
            }[];
        };
        TransformationSave: {
            /** @description JavaScript: a function `(request, context) => request | null` (docs/transformations.md) */
            code: string;
        };
        TransformationPreviewInput: {
            /** @description JavaScript: a function `(request, context) => request | null` (docs/transformations.md) */
            code: string;
            /** @description run as this target’s transformation (its context); default: the endpoint’s */
            target_id?: string;
            /** @description these events; default: the newest */
            event_ids?: string[];
            /** @description how many of the newest accepted events (5) */
            limit?: number;
        };
        TransformationPreview: {
            data: {
                event_id: string;
                input?: {
                    method: string;
                    path: string;
                    query: {
                        [key: string]: unknown;
                    };
                    headers: {
                        [key: string]: string;
                    };
                    /** @description any JSON value */
                    body: unknown;
                };
                output?: {
                    method: string;
                    path: string;
                    query: {
                        [key: string]: unknown;
                    };
                    headers: {
                        [key: string]: string;
                    };
                    /** @description any JSON value */
                    body: unknown;
                } | null;
                dropped?: boolean;
                diff?: {
                    changes: {
                        path: string;
                        /** @description any JSON value */
                        before?: unknown;
                        /** @description any JSON value */
                        after?: unknown;
                    }[];
                    total: number;
                } | null;
                logs?: string[];
                duration_ms?: number;
                error: string | null;
                line?: number | null;
            }[];
        };
        /** @description one setting; the kind’s own checks (URL forms, header rules) stay on the server */
        TargetKindField: {
            name: string;
            /** @enum {string} */
            type: "string" | "boolean" | "integer" | "number" | "enum" | "object" | "list" | "variant";
            label: string;
            help?: string;
            example?: unknown;
            required: boolean;
            /** @description true: sealed at rest, shown as set, never returned; `{ when }`: so when that sibling switch is on */
            credential: boolean | {
                when: string;
            };
            default?: unknown;
            /**
             * @description the setting is the target’s own field of that name: not asked twice
             * @enum {string}
             */
            same_as?: "name";
            min_length?: number;
            max_length?: number;
            /** @description a JavaScript regular expression (u flag) */
            pattern?: string;
            /** @description the API’s message for a value that does not match `pattern` */
            pattern_message?: string;
            /** @enum {string} */
            format?: "email" | "url";
            multiline?: boolean;
            const?: boolean;
            minimum?: number;
            maximum?: number;
            values?: {
                value: string;
                label: string;
            }[];
            fields?: components["schemas"]["TargetKindField"][];
            items?: components["schemas"]["TargetKindField"];
            max_items?: number;
            tag?: string;
            variants?: {
                value: string;
                label: string;
                fields: components["schemas"]["TargetKindField"][];
            }[];
        };
        TargetKind: {
            /** @description stored in the target record, e.g. `webhook` */
            kind: string;
            /** @description the deliverer queue its deliveries travel on */
            channel: string;
            /** @description whether a target of this kind may set `ordering` (docs/ordering.md) */
            ordering: boolean;
            label: string;
            help?: string;
            default_retry_schedule_ms: number[];
            /** @description the limits a target of this kind follows when it sets none: its platform’s published limit (docs/delivery-limits.md); null: none */
            default_limits: {
                rate: number | null;
                /** @enum {string} */
                per: "second" | "minute";
                max_in_flight: number | null;
            } | null;
            fields: components["schemas"]["TargetKindField"][];
        };
        TargetKindList: {
            target_fields: components["schemas"]["TargetKindField"][];
            data: components["schemas"]["TargetKind"][];
        };
        /** @description the alert this row delivers: Relay’s own message to the target, not a sender’s request (no source IP, no stored request, no resend); null on requests */
        ActivityAlert: {
            alert_id: string;
            rule_id: string;
            rule_name: string;
            /** @description the condition kind (docs/alerts.md) */
            kind: string;
            /** @description the condition’s name, e.g. “A target was flagged” */
            title: string;
        };
        ActivityListed: {
            /** @description the event id (`evt_…`), or `agg_…` for an aggregated row */
            id: string;
            account_id: string;
            endpoint_id: string;
            /**
             * Format: date-time
             * @description the first attempt's time while the request's fields are null
             */
            received_at: string;
            /** @description null until the gateway's record of the request reaches the log (its deliveries came first) */
            method: string | null;
            /** @description null on aggregated rows, and null until the gateway's record of the request reaches the log (its deliveries came first) */
            source_ip: string | null;
            outcome: ("ACCEPTED" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "HANDSHAKE_ANSWERED" | "DUPLICATE" | "CONTRACT_VIOLATION") | null;
            /** @description why a request was rejected */
            reason: string | null;
            /**
             * @description the filter group
             * @enum {string}
             */
            status: "completed" | "pending" | "errors";
            /** @description the latest delivery error */
            last_error: string | null;
            target_count: number;
            /** @description a test request (the Test group) */
            test: boolean;
            /** @description a flood of identical rejections in one minute, folded into this row */
            aggregate: {
                count: number;
                /** Format: date-time */
                first_seen: string;
                /** Format: date-time */
                last_seen: string;
            } | null;
            alert: components["schemas"]["ActivityAlert"] | null;
            /**
             * Format: date-time
             * @description when the soonest delivery of the row that failed and waits for its next attempt is tried again; null when none waits (never tried yet, delivered, or failed for good). A `pending` row with a time is retrying: the dashboard reads it "Retrying"
             */
            next_attempt_at: string | null;
        };
        ActivityPage: {
            data: components["schemas"]["ActivityListed"][];
            /** @description pass back as `cursor` with the same filters; null at the end */
            next_cursor: string | null;
        };
        /** @description The request of an accepted event, as kept for resends. */
        ActivityRequest: {
            event_id: string;
            method: string;
            source_ip: string;
            /** @description the raw query string, without `?`; empty when none */
            query: string;
            /** @description as the sender sent them, lower-case names; credentials (inbound-auth headers, and any name with token, secret, signature, password, api key, session, cookie or authorization) read `[redacted]` */
            headers: {
                [key: string]: string;
            };
            content_type: string | null;
            size_bytes: number;
            /** @description the payload’s exact bytes */
            body_base64: string;
            /** @description the payload as text when its bytes are UTF-8; null otherwise (use body_base64) */
            body_text: string | null;
        };
        /** @description One row with its deliveries and their attempts. */
        ActivityRow: {
            /** @description the event id (`evt_…`), or `agg_…` for an aggregated row */
            id: string;
            account_id: string;
            endpoint_id: string;
            /**
             * Format: date-time
             * @description the first attempt's time while the request's fields are null
             */
            received_at: string;
            /** @description null until the gateway's record of the request reaches the log (its deliveries came first) */
            method: string | null;
            /** @description null on aggregated rows, and null until the gateway's record of the request reaches the log (its deliveries came first) */
            source_ip: string | null;
            outcome: ("ACCEPTED" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "HANDSHAKE_ANSWERED" | "DUPLICATE" | "CONTRACT_VIOLATION") | null;
            /** @description why a request was rejected */
            reason: string | null;
            /**
             * @description the filter group
             * @enum {string}
             */
            status: "completed" | "pending" | "errors";
            /** @description the latest delivery error */
            last_error: string | null;
            target_count: number;
            /** @description a test request (the Test group) */
            test: boolean;
            /** @description a flood of identical rejections in one minute, folded into this row */
            aggregate: {
                count: number;
                /** Format: date-time */
                first_seen: string;
                /** Format: date-time */
                last_seen: string;
            } | null;
            alert: components["schemas"]["ActivityAlert"] | null;
            deliveries: {
                delivery_id: string;
                target_id: string;
                target_kind: string;
                /** @description the target’s name now; null once it was deleted */
                target_name: string | null;
                /** @enum {string} */
                state: "delivered" | "retrying" | "failed" | "transform_failed" | "dropped";
                /**
                 * Format: date-time
                 * @description when the delivery began: the request’s `received_at` for the first delivery to a target, the time of the resend or bulk retry that made a later one; its latency runs from here
                 */
                started_at: string;
                attempts: {
                    attempt: number;
                    /** Format: date-time */
                    attempted_at: string;
                    /** @enum {string} */
                    state: "delivered" | "retrying" | "failed" | "transform_failed" | "dropped";
                    status_code: number | null;
                    duration_ms: number;
                    error: string | null;
                    /** Format: date-time */
                    next_attempt_at: string | null;
                    /** @description What the target answered (docs/delivery.md). Absent when no HTTP answer came: a network failure, an email or spreadsheet target, an attempt not sent, or an attempt recorded before responses were kept. */
                    response?: {
                        /** @description the response headers by lower-case name, at most 20, each value at most 256 characters; a credential's (Set-Cookie, Authorization, names with token, secret, signature, password, api key, session) as `[redacted]` */
                        headers: {
                            [key: string]: string;
                        };
                        /** @description headers past the first 20, left out */
                        headers_omitted: number;
                        /** @description the first 1024 characters of the body */
                        body: string;
                        /** @description the body was longer */
                        body_truncated: boolean;
                    };
                    /** @description The transformations that ran for this attempt (docs/transformations.md); absent when none. */
                    transform?: {
                        /** @description in the order they ran: the endpoint’s, then the target’s */
                        versions: {
                            /** @enum {string} */
                            scope: "endpoint" | "target";
                            version: number;
                        }[];
                        /** @description their console lines, `[<scope> v<version>] …` */
                        logs: string[];
                    };
                    /** @description times the request was sent again inside this attempt, after a reused kept-alive connection was reset before any answer: the target may have got 1 + `resends` requests, all with the same `X-Relay-Delivery-Id` (docs/delivery.md "Stale connections"); absent when none */
                    resends?: number;
                    /** @description The ordering key this delivery held back as the head of a stuck key (docs/ordering.md "Held keys"): set on its latest attempt when the key was found stuck, and on each attempt after it; absent otherwise. */
                    ordering?: {
                        key: string;
                        /**
                         * Format: date-time
                         * @description when the key was found stuck: its head had waited `ORDERING_STUCK_AFTER_MS`
                         */
                        stuck_since: string;
                    };
                }[];
            }[];
            /** @description targets the event was not sent to because its payload did not meet their routing rules (docs/routing.md); empty when none */
            not_routed: {
                target_id: string;
                /** @description the target’s name now; null once it was deleted */
                target_name: string | null;
            }[];
            quarantine: ("kept" | "bound_reached") | null;
            /** @description the quarantined request this row re-ran; null otherwise */
            rerun_of: string | null;
            /** @description an event accepted in contract `mark` mode though its payload failed: the schema and what failed (docs/contracts.md); null otherwise */
            contract_violation: string | null;
        };
        /** @description Every field optional: without `body`, `body_base64` and `query`, a sample the endpoint’s format reads is sent. */
        TestRequest: {
            /** @description any of the endpoint methods, in any case; default POST if the endpoint allows it, else its first allowed method */
            method?: string;
            /** @description at most 50; not Content-Type (use `content_type`), Content-Length, Host, Transfer-Encoding or Connection */
            headers?: {
                [key: string]: string;
            };
            /** @description the raw query string, without `?`, `#` or white space */
            query?: string;
            /** @description default: the media type of the endpoint’s format; null sends none */
            content_type?: string | null;
            /** @description a string is sent as its UTF-8 bytes, any other JSON value as JSON text; not with `body_base64` */
            body?: unknown;
            /** @description the exact bytes, base64; not with `body` */
            body_base64?: string;
        };
        TestRequestAccepted: {
            event_id: string;
            /** @constant */
            outcome: "ACCEPTED";
            /** @description the targets it is being delivered to; their attempts show on the row */
            target_count: number;
            /** @constant */
            test: true;
            /** @description true when an `Idempotency-Key` in `headers` repeated an earlier request: its first answer, nothing delivered again */
            replayed: boolean;
        };
        TestRequestRejected: {
            /** @enum {string} */
            code: "test_request_rejected";
            /** @description names what the pipeline said */
            message: string;
            /** @description the Test row written; null when a sender gets no row either (disabled or paused endpoint) */
            event_id: string | null;
            outcome: ("ACCEPTED" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "HANDSHAKE_ANSWERED" | "DUPLICATE" | "CONTRACT_VIOLATION") | null;
            reason: string | null;
            /** @description the HTTP status a sender would have got */
            ingest_status: number;
            /** @description the `code` a sender would have got (docs/ingest.md) */
            ingest_code: string;
        };
        RerunAccepted: {
            /** @description the new event; its row’s `rerun_of` is the original */
            event_id: string;
            /** @constant */
            outcome: "ACCEPTED";
            /** @description the targets it is being delivered to; their attempts show on the row */
            target_count: number;
            /** @description the quarantined request re-run */
            rerun_of: string;
            /** @description true when the request was already re-run and accepted (or its Idempotency-Key or provider delivery id repeats an accepted request): that event, nothing delivered again */
            replayed: boolean;
        };
        RerunRejected: {
            /** @enum {string} */
            code: "rerun_rejected";
            /** @description names what the pipeline said */
            message: string;
            /** @description the new row, quarantined again when the rules refused it; null when a sender gets no row either (disabled or paused endpoint) */
            event_id: string | null;
            outcome: ("ACCEPTED" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "HANDSHAKE_ANSWERED" | "DUPLICATE" | "CONTRACT_VIOLATION") | null;
            reason: string | null;
            /** @description the HTTP status a sender would have got */
            ingest_status: number;
            /** @description the `code` a sender would have got (docs/ingest.md) */
            ingest_code: string;
        };
        Resend: {
            /** @description only these targets (enabled, not flagged); without it every enabled target the endpoint has now, except those the row lists as not routed (docs/routing.md) */
            target_ids?: string[];
            /** @description only this target (the same as `target_ids` of one); not with `target_ids` */
            target_id?: string;
        };
        ResendAccepted: {
            event_id: string;
            deliveries: {
                /** @description `<first delivery id>_r<tag>` */
                delivery_id: string;
                target_id: string;
                target_kind: string;
            }[];
        };
        BulkRetryCreate: {
            /** @description without it every endpoint of the account */
            endpoint_id?: string | null;
            /** @description needs `endpoint_id`: only that target’s failed deliveries */
            target_id?: string | null;
            /**
             * @description the only group with failed deliveries
             * @enum {string}
             */
            status?: "errors";
            /** @description ISO 8601; default `to` − 24 h; never before the retention period */
            from?: string;
            /** @description ISO 8601; default now */
            to?: string;
            /** @description deliveries published per second, at most BULK_RETRY_MAX_RATE (the default) */
            rate_per_second?: number;
        };
        BulkRetry: {
            /** @description `brj_…` */
            id: string;
            account_id: string;
            filter: {
                endpoint_id: string | null;
                target_id: string | null;
                /** @constant */
                status: "errors";
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
            rate_per_second: number;
            /**
             * @description `queued` → `running` → `done` | `cancelled` | `failed`
             * @enum {string}
             */
            state: "queued" | "running" | "done" | "cancelled" | "failed";
            cancel_requested: boolean;
            /** @description the total is not known in advance: `rows_scanned` grows until `done`; `skipped_resend_limit`: rows whose new deliveries would pass the per-event ceiling resends share; `deliveries_held`: failed deliveries left out because their target is flagged or paused (`skipped_target_held`: rows with nothing else to retry) */
            progress: {
                rows_scanned: number;
                rows_retried: number;
                deliveries_queued: number;
                skipped_not_accepted: number;
                skipped_no_payload: number;
                skipped_not_failed: number;
                skipped_target_gone: number;
                skipped_target_held: number;
                deliveries_held: number;
                skipped_resend_limit: number;
            };
            /** @description runs taken so far (a run resumes from the saved cursor after a crash) */
            runs: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            finished_at: string | null;
            /** @description why the last run ended early (the next resumes), or why the job failed */
            error: string | null;
        };
        BulkRetryPreview: {
            filter: {
                endpoint_id: string | null;
                target_id: string | null;
                /** @constant */
                status: "errors";
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
            /** @description failed deliveries a bulk retry of this body would queue again now */
            deliveries: number;
            /** @description the events (rows) they belong to */
            events: number;
            /** @description false when the window holds more than `max_rows` rows of Errors: the counts are of the newest 500, a floor */
            complete: boolean;
            /** @description most rows a preview goes through */
            max_rows: number;
            /** @description the job’s counts as a run now would make them, nothing queued */
            counts: {
                rows_scanned: number;
                rows_retried: number;
                deliveries_queued: number;
                skipped_not_accepted: number;
                skipped_no_payload: number;
                skipped_not_failed: number;
                skipped_target_gone: number;
                skipped_target_held: number;
                deliveries_held: number;
                skipped_resend_limit: number;
            };
            /** @description targets that are flagged (clear the flag first) or paused (resume first), by name: their failed deliveries are left out of the count and of the job */
            held_targets: {
                target_id: string;
                name: string;
                /** @enum {string} */
                held: "flagged" | "paused";
                /** @description its failed deliveries the bulk retry leaves out */
                deliveries: number;
            }[];
        };
        BulkRetryPage: {
            data: components["schemas"]["BulkRetry"][];
            /** @description pass back as `cursor`; null on the last page */
            next_cursor: string | null;
        };
        BulkRerunCreate: {
            /** @description without it every endpoint of the account */
            endpoint_id?: string | null;
            /** @description ISO 8601; default `to` − 24 h; never before the retention period */
            from?: string;
            /** @description ISO 8601; default now */
            to?: string;
        };
        BulkRerunPreview: {
            /** @description the window as applied (defaults filled in) */
            filter: {
                endpoint_id: string | null;
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
            /** @description quarantined requests a bulk re-run of this body would run now */
            requests: number;
            /** @description false when the window holds more than `max_requests` of them (or more than 500 refusals to look through): `requests` is a floor, and a bulk re-run of it is refused (409 `rerun_set_too_large`) */
            complete: boolean;
            /** @description most quarantined requests one bulk re-run takes */
            max_requests: number;
        };
        BulkRerun: {
            /** @description the window as applied (defaults filled in) */
            filter: {
                endpoint_id: string | null;
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
            /** @description quarantined requests run */
            requests: number;
            accepted: number;
            /** @description already re-run and accepted: answered with that event */
            replayed: number;
            /** @description refused again: each a new row, quarantined again */
            refused: number;
            /** @description kept, but not in the log (yet): not run */
            payload_not_stored: number;
            /** @description oldest first, in the order they were run */
            results: {
                /** @description the quarantined request */
                event_id: string;
                /** @enum {string} */
                result: "accepted" | "replayed" | "refused" | "payload_not_stored";
                /** @description the re-run’s event (refused: its row); null when not run */
                new_event_id: string | null;
                /** @description refused: the `code` a sender would have got (docs/ingest.md) */
                code: string | null;
            }[];
        };
        Plan: {
            name: string;
            /** @description accepted events per UTC calendar month; then 429 QUOTA_EXCEEDED. 0 accepts none */
            monthly_accepted_events: number;
            /** @description the largest payload accepted; larger is 413 PAYLOAD_TOO_LARGE. The gateway never reads more than its MAX_BODY_BYTES (1 MiB by default), whatever the plan says */
            payload_limit_bytes: number;
        };
        /** @description The limits to change; the others stay. */
        PlanPatch: {
            name?: string;
            /** @description accepted events per UTC calendar month; then 429 QUOTA_EXCEEDED. 0 accepts none */
            monthly_accepted_events?: number;
            /** @description the largest payload accepted; larger is 413 PAYLOAD_TOO_LARGE. The gateway never reads more than its MAX_BODY_BYTES (1 MiB by default), whatever the plan says */
            payload_limit_bytes?: number;
        };
        AccountPlan: {
            account_id: string;
            plan: components["schemas"]["Plan"];
        };
        Usage: {
            account_id: string;
            plan: components["schemas"]["Plan"];
            period: {
                /** @description YYYY-MM (UTC) */
                month: string;
                /** Format: date-time */
                start: string;
                /**
                 * Format: date-time
                 * @description exclusive: when the count starts again
                 */
                end: string;
            };
            accepted_events: number;
            /** @description repeats plan.monthly_accepted_events */
            limit: number;
            /** @description max(0, limit - accepted_events) */
            remaining: number;
        };
        ApiKeyCreate: {
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @description a label, e.g. "CI deploys" */
            name?: string;
        };
        ApiKey: {
            /** @description `key_…`: what revoking names */
            id: string;
            /** @description the first 7 characters of the key (`rk_AbCd`); the actor in audit rows */
            prefix: string;
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            name: string | null;
            /** @description the prefix of the key that created it; null for the bootstrap command */
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when it last authenticated a request, to the minute; null if never
             */
            last_used_at: string | null;
        };
        ApiKeyCreated: {
            /** @description `key_…`: what revoking names */
            id: string;
            /** @description the first 7 characters of the key (`rk_AbCd`); the actor in audit rows */
            prefix: string;
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            name: string | null;
            /** @description the prefix of the key that created it; null for the bootstrap command */
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description when it last authenticated a request, to the minute; null if never
             */
            last_used_at: string | null;
            /** @description the key itself (`rk_…`): shown this once, stored only as its SHA-256 digest */
            secret: string;
        };
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
        };
        DailyUsage: {
            account_id: string;
            period: {
                month: string;
                /** Format: date-time */
                start: string;
                /** Format: date-time */
                end: string;
            };
            /** @description the plan's monthly accepted events */
            limit: number;
            /** @description the month so far (the quota counter) */
            accepted_events: number;
            days: {
                /** @description YYYY-MM-DD (UTC) */
                date: string;
                accepted_events: number;
            }[];
            endpoints: {
                endpoint_id: string;
                /** @description null: deleted */
                name: string | null;
                accepted_events: number;
                /** @description aligned with the top-level `days` */
                days: number[];
            }[];
            unattributed: number;
        };
        AccountAuditPage: {
            data: components["schemas"]["AuditRow"][];
            /** Format: date-time */
            next_before: string | null;
        };
        Member: {
            /** @description `mem_…`: the actor of their changes in the audit history */
            id: string;
            /** @description the address the invitation went to */
            email: string;
            /** @description the ID token's `name` when they joined */
            name: string | null;
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @description the identity provider that vouches for them */
            issuer: string;
            /** @description their `sub` at that provider */
            subject: string;
            /** @description the actor that invited them */
            invited_by: string;
            /**
             * Format: date-time
             * @description when they accepted the invitation
             */
            created_at: string;
        };
        MemberList: {
            data: components["schemas"]["Member"][];
        };
        InvitationCreate: {
            /** @description where the invitation goes (through the operator’s mail relay) */
            email: string;
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
        };
        Invitation: {
            /** @description `inv_…`: what revoking names */
            id: string;
            email: string;
            /**
             * @description viewer < editor < admin < owner (docs/management-api.md "Roles")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @description the actor that invited */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description the link works until then, once
             */
            expires_at: string;
        };
        InvitationList: {
            data: components["schemas"]["Invitation"][];
        };
        IdentityProviderSet: {
            /** @description https, or http on loopback (127.0.0.1, localhost, [::1]) for a provider on this machine */
            issuer: string;
            client_id: string;
            /** @description sealed at rest; never answered */
            client_secret: string;
        };
        IdentityProvider: {
            /** @description the OpenID provider, exactly as its discovery document names itself */
            issuer: string;
            client_id: string;
            /** @description never answered: sealed at rest with SECRETS_KEYS */
            client_secret: {
                /** @constant */
                set: true;
            };
            /** @description the callback to register at the provider: `{DASHBOARD_URL}session/oidc/callback` */
            redirect_uri: string;
            updated_by: string;
            /** Format: date-time */
            updated_at: string;
        };
        AuditRow: {
            id: string;
            /** @enum {string} */
            action: "enabled" | "disabled" | "paused" | "resumed" | "endpoint_created" | "endpoint_updated" | "endpoint_deleted" | "target_created" | "target_updated" | "target_deleted" | "target_flag_cleared" | "target_paused" | "target_resumed" | "transformation_saved" | "transformation_restored" | "transformation_removed" | "key_created" | "key_revoked" | "plan_changed" | "alert_rule_created" | "alert_rule_updated" | "alert_rule_deleted" | "alert_test_sent" | "member_invited" | "invitation_revoked" | "member_joined" | "member_removed" | "identity_provider_set" | "identity_provider_removed";
            /** @description the prefix of the API key that made the change (a dashboard session: its key), or the id (`mem_…`) of the member who made it; `operator` for the bootstrap and plan commands */
            actor: string;
            /** @description the name of that key, or the member as `Name <email>` (the address alone when the provider gave no name) */
            actor_name: string | null;
            /** @description the address the request came from; null for the operator commands */
            source_ip: string | null;
            /** Format: date-time */
            at: string;
            /** @description endpoint and target changes */
            endpoint_id: string | null;
            /** @description key actions */
            key_id: string | null;
            /** @description What changed, never a value of a secret. `endpoint_created`/`endpoint_updated`: `fields` (the settings set, by name) and `secrets_changed` (those of them holding secrets: shown as changed only); `target_*`: `target_id`, `name` (and `kind`, or `fields` for an update); key actions: `role`, `prefix`, `name`; `plan_changed`: `before`, `after`. */
            details: {
                [key: string]: unknown;
            } | null;
        };
        AlertRuleInput: {
            name: string;
            /**
             * @description a disabled rule sends nothing
             * @default true
             */
            enabled?: boolean;
            /** @description where alerts go: targets of the account, of any kind */
            target_ids: string[];
            conditions: ({
                /**
                 * @description Relay stopped delivering to a target: its destination is gone or refused too many times in a row.
                 * @constant
                 */
                kind: "target_flagged";
                /**
                 * Target
                 * @description the target whose flag; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description Deliveries to the target are held because too many failed.
                 * @constant
                 */
                kind: "breaker_opened";
                /**
                 * Target
                 * @description the target whose breaker; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description The target answers again; held deliveries flow.
                 * @constant
                 */
                kind: "breaker_closed";
                /**
                 * Target
                 * @description the target whose breaker; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description The share of the target's delivery attempts that failed over the window reached the threshold.
                 * @constant
                 */
                kind: "failure_rate";
                /**
                 * Target
                 * @description the target whose attempts are counted
                 */
                target_id: string;
                /**
                 * Threshold (%)
                 * @description failed attempts, in percent of all attempts in the window
                 * @default 50
                 */
                threshold_percent?: number;
                /**
                 * Window (minutes)
                 * @description the share is counted over this many last minutes
                 * @default 5
                 */
                window_minutes?: number;
                /**
                 * Least attempts
                 * @description no alert on fewer attempts than this in the window
                 * @default 10
                 */
                min_attempts?: number;
            } | {
                /**
                 * @description The share of the endpoint's requests rejected (with one outcome, or any) over the window reached the threshold. AUTH_FAILED usually means the provider rotated its secret.
                 * @constant
                 */
                kind: "rejection_spike";
                /**
                 * Endpoint
                 * @description the endpoint whose requests are counted
                 */
                endpoint_id: string;
                /**
                 * Outcome
                 * @description the rejection counted, or any rejection
                 * @enum {string}
                 */
                outcome?: "ANY_REJECTION" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "CONTRACT_VIOLATION";
                /**
                 * Threshold (%)
                 * @description rejected requests, in percent of all requests in the window
                 * @default 50
                 */
                threshold_percent?: number;
                /**
                 * Window (minutes)
                 * @description the share is counted over this many last minutes
                 * @default 5
                 */
                window_minutes?: number;
                /**
                 * Least requests
                 * @description no alert on fewer requests than this in the window
                 * @default 20
                 */
                min_requests?: number;
            } | {
                /**
                 * @description The account's accepted events this month reached the threshold of its plan's monthly quota.
                 * @constant
                 */
                kind: "quota_nearly_used";
                /**
                 * Threshold (%)
                 * @description accepted events, in percent of the plan's monthly quota
                 * @default 90
                 */
                threshold_percent?: number;
            } | {
                /**
                 * @description A delivery at the head of one of the target's ordering keys has not been delivered for longer than the deliverers' bound (ORDERING_STUCK_AFTER_MS); the key's later events wait behind it.
                 * @constant
                 */
                kind: "ordering_key_stuck";
                /**
                 * Target
                 * @description the target whose ordering key; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description An event of an endpoint authenticated by a provider preset came with a payload shape not seen before for its event type: fields appeared, disappeared or changed type against the first shape seen (docs/contracts.md "Drift").
                 * @constant
                 */
                kind: "payload_drift";
                /**
                 * Endpoint
                 * @description the endpoint whose payloads are watched; none: any endpoint of the account
                 */
                endpoint_id?: string;
            })[];
            /**
             * @description an episode ends when its condition was not seen for this long; one alert per episode
             * @default 60
             */
            cooldown_minutes?: number;
        };
        AlertRule: {
            /** @description `ar_…` */
            id: string;
            name: string;
            /**
             * @description a disabled rule sends nothing
             * @default true
             */
            enabled: boolean;
            /** @description where alerts go: targets of the account, of any kind */
            target_ids: string[];
            conditions: ({
                /**
                 * @description Relay stopped delivering to a target: its destination is gone or refused too many times in a row.
                 * @constant
                 */
                kind: "target_flagged";
                /**
                 * Target
                 * @description the target whose flag; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description Deliveries to the target are held because too many failed.
                 * @constant
                 */
                kind: "breaker_opened";
                /**
                 * Target
                 * @description the target whose breaker; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description The target answers again; held deliveries flow.
                 * @constant
                 */
                kind: "breaker_closed";
                /**
                 * Target
                 * @description the target whose breaker; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description The share of the target's delivery attempts that failed over the window reached the threshold.
                 * @constant
                 */
                kind: "failure_rate";
                /**
                 * Target
                 * @description the target whose attempts are counted
                 */
                target_id: string;
                /**
                 * Threshold (%)
                 * @description failed attempts, in percent of all attempts in the window
                 * @default 50
                 */
                threshold_percent: number;
                /**
                 * Window (minutes)
                 * @description the share is counted over this many last minutes
                 * @default 5
                 */
                window_minutes: number;
                /**
                 * Least attempts
                 * @description no alert on fewer attempts than this in the window
                 * @default 10
                 */
                min_attempts: number;
            } | {
                /**
                 * @description The share of the endpoint's requests rejected (with one outcome, or any) over the window reached the threshold. AUTH_FAILED usually means the provider rotated its secret.
                 * @constant
                 */
                kind: "rejection_spike";
                /**
                 * Endpoint
                 * @description the endpoint whose requests are counted
                 */
                endpoint_id: string;
                /**
                 * Outcome
                 * @description the rejection counted, or any rejection
                 * @enum {string}
                 */
                outcome: "ANY_REJECTION" | "AUTH_FAILED" | "METHOD_NOT_ALLOWED" | "IP_BLOCKED" | "REQUEST_BODY_FILTER_FAILED" | "DELIVERY_QUEUE_UNAVAILABLE" | "MALFORMED_QUERY_PARAM" | "PAYLOAD_TOO_LARGE" | "REQUIRED_HEADER_MISSING" | "FIELD_VALIDATION_FAILED" | "MALFORMED_PAYLOAD" | "UNSUPPORTED_MEDIA_TYPE" | "CAPTCHA_FAILED" | "RATE_LIMITED" | "QUOTA_EXCEEDED" | "MALFORMED_HEADER" | "REQUEST_TIMEOUT" | "CONTRACT_VIOLATION";
                /**
                 * Threshold (%)
                 * @description rejected requests, in percent of all requests in the window
                 * @default 50
                 */
                threshold_percent: number;
                /**
                 * Window (minutes)
                 * @description the share is counted over this many last minutes
                 * @default 5
                 */
                window_minutes: number;
                /**
                 * Least requests
                 * @description no alert on fewer requests than this in the window
                 * @default 20
                 */
                min_requests: number;
            } | {
                /**
                 * @description The account's accepted events this month reached the threshold of its plan's monthly quota.
                 * @constant
                 */
                kind: "quota_nearly_used";
                /**
                 * Threshold (%)
                 * @description accepted events, in percent of the plan's monthly quota
                 * @default 90
                 */
                threshold_percent: number;
            } | {
                /**
                 * @description A delivery at the head of one of the target's ordering keys has not been delivered for longer than the deliverers' bound (ORDERING_STUCK_AFTER_MS); the key's later events wait behind it.
                 * @constant
                 */
                kind: "ordering_key_stuck";
                /**
                 * Target
                 * @description the target whose ordering key; none: any target of the account
                 */
                target_id?: string;
            } | {
                /**
                 * @description An event of an endpoint authenticated by a provider preset came with a payload shape not seen before for its event type: fields appeared, disappeared or changed type against the first shape seen (docs/contracts.md "Drift").
                 * @constant
                 */
                kind: "payload_drift";
                /**
                 * Endpoint
                 * @description the endpoint whose payloads are watched; none: any endpoint of the account
                 */
                endpoint_id?: string;
            })[];
            /**
             * @description an episode ends when its condition was not seen for this long; one alert per episode
             * @default 60
             */
            cooldown_minutes: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        AlertRuleList: {
            data: components["schemas"]["AlertRule"][];
        };
        Alert: {
            /** @description `al_…` */
            id: string;
            rule_id: string;
            rule_name: string;
            /** @enum {string} */
            kind: "target_flagged" | "breaker_opened" | "breaker_closed" | "failure_rate" | "rejection_spike" | "quota_nearly_used" | "ordering_key_stuck" | "payload_drift";
            test: boolean;
            /** Format: date-time */
            at: string;
            summary: string;
            /** @description the dashboard view that explains the alert */
            link: string;
            endpoint_id: string | null;
            target_id: string | null;
            deliveries: {
                target_id: string;
                endpoint_id: string | null;
                /** @description the activity row of the alert’s delivery to this target */
                event_id: string | null;
                /** @description why it was not queued */
                error: string | null;
            }[];
        };
        AlertList: {
            data: components["schemas"]["Alert"][];
        };
    };
    responses: {
        /** @description `validation_failed`: a body field or a parameter is invalid — `errors` names each; `malformed_json`: the body is not JSON; `malformed_path`: the URL path is not valid percent-encoding. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "validation_failed" | "malformed_json" | "malformed_path";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                    /** @description every problem at once */
                    errors?: components["schemas"]["FieldError"][];
                };
            };
        };
        /** @description `unauthorized`: no API key, or one that is unknown or revoked. */
        Unauthorized: {
            headers: {
                /** @description `Bearer realm="relay"` (RFC 6750 §3) */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "unauthorized";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `forbidden`: the key's or member's role is below what the operation needs (see `x-relay-role`). `csrf_failed`: a change made with the dashboard's session cookie without its CSRF token, or from another origin (docs/dashboard.md). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "forbidden" | "csrf_failed";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `not_found`: the resource does not exist or belongs to another account. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "not_found";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `conflict`: another request changed the endpoint while this one was being saved; read it again and retry. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "conflict";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `too_many_alert_rules`: the account has the most alert rules it may have (docs/alerts.md). */
        AlertRulesFull: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "too_many_alert_rules";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `payload_too_large`: a body over 256 KB. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "payload_too_large";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `internal_error`: opaque to the caller, logged in full. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "internal_error";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `too_many_test_requests`, `too_many_resends`, `too_many_bulk_retries`, `too_many_bulk_reruns`, `too_many_test_alerts`: the account's ceiling for that action (docs/management-api.md, docs/alerts.md). */
        TooManyRequests: {
            headers: {
                /** @description seconds until the window ends */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "too_many_test_requests" | "too_many_resends" | "too_many_bulk_retries" | "too_many_bulk_reruns" | "too_many_test_alerts";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `gateway_unavailable`: no ingest gateway ran the test request or re-run (a bulk re-run: those before it were run, and running it again is safe). */
        GatewayUnavailable: {
            headers: {
                /** @description seconds: 5 */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "gateway_unavailable";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `delivery_queue_unavailable`: the broker did not confirm the deliveries (nothing was sent, or a delivery went out that the receiver dedupes on its `X-Relay-Delivery-Id`); `resend_unavailable`: the event’s resend count (Redis) cannot be checked, so nothing was sent. */
        ResendUnavailable: {
            headers: {
                /** @description seconds: 5 */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "delivery_queue_unavailable" | "resend_unavailable";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
        /** @description `usage_unavailable`: the usage counter (Redis) cannot be read. */
        UsageUnavailable: {
            headers: {
                /** @description seconds: 5 */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /**
                     * @description stable, machine-readable
                     * @enum {string}
                     */
                    code: "usage_unavailable";
                    /** @description for people; validation errors join every field error as `field: message; …` */
                    message: string;
                };
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every endpoint of the account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    createEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointCreate"];
            };
        };
        responses: {
            /** @description The endpoint, secrets redacted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    updateEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointPatch"];
            };
        };
        responses: {
            /** @description The endpoint as saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    pauseEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    resumeEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    disableEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    enableEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    listEndpointAudit: {
        parameters: {
            query?: {
                /** @description rows per page */
                limit?: number;
                /** @description the `next_before` of the previous page */
                before?: string;
            };
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointAuditPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    validateEndpointPayload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContractValidate"];
            };
        };
        responses: {
            /** @description The check ran; `valid` says whether the payload passed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractValidation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description `no_contracts`: the endpoint has none and no draft was sent. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        code: "no_contracts";
                        message: string;
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listTargets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every target of the endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    createTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TargetCreate"];
            };
        };
        responses: {
            /** @description The target, secrets masked. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    updateTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TargetPatch"];
            };
        };
        responses: {
            /** @description The target as saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    clearTargetFlag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target, unflagged. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    listHeldKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target’s ordering and its held keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HeldKeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    pauseTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target, paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    resumeTarget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The target, resumed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Target"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getEndpointTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transformation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transformation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    saveEndpointTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransformationSave"];
            };
        };
        responses: {
            /** @description The version saved. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    removeEndpointTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (or there was none). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getEndpointTransformationVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description a version number */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version with its code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    restoreEndpointTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description a version number */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new version. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getTargetTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transformation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transformation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    saveTargetTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransformationSave"];
            };
        };
        responses: {
            /** @description The version saved. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    removeTargetTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (or there was none). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getTargetTransformationVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
                /** @description a version number */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version with its code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    restoreTargetTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
                /** @description the target id (`tg_…`) of this endpoint */
                targetId: string;
                /** @description a version number */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new version. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    previewTransformation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`) */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransformationPreviewInput"];
            };
        };
        responses: {
            /** @description One result per request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransformationPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listTargetKinds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The kinds, in catalog order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TargetKindList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    listActivity: {
        parameters: {
            query?: {
                /** @description one endpoint; without it every endpoint of the account */
                endpoint_id?: string;
                /** @description inclusive, ISO 8601 */
                from?: string;
                /** @description exclusive, ISO 8601 */
                to?: string;
                /** @description the filter group */
                status?: "all" | "completed" | "pending" | "errors" | "test";
                /** @description an exact IPv4 or IPv6 address (anything else is a 400) */
                source_ip?: string;
                /** @description a literal, case-insensitive substring of what the row shows: the outcome label and code (`Unsupported Media Type (UNSUPPORTED_MEDIA_TYPE)`), the rejection reason or the latest delivery error; needs a window of at most 24 hours (the last 24 hours by default) */
                error?: string;
                /** @description a literal, case-insensitive substring of the stored payload (accepted rows; the body read as UTF-8). Reads at most 100 rows a call: follow `next_cursor` to search older rows. Same 24-hour window as `error` */
                payload?: string;
                /** @description rows with an attempt answered this status (`503`) or class (`5xx`). Reads at most 100 rows a call: follow `next_cursor` to search older rows. Same 24-hour window as `error` */
                response_status?: string;
                /** @description rows per page */
                limit?: number;
                /** @description the `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    getActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The row. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityRow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    getActivityRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    testEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the endpoint id (`ep_…`); another account’s endpoint is not found */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TestRequest"];
            };
        };
        responses: {
            /** @description Accepted by the pipeline; being delivered. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestRequestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `test_request_rejected`: the pipeline refused it, as it would a sender’s request. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestRequestRejected"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["GatewayUnavailable"];
        };
    };
    resendActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id (`evt_…`) */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Resend"];
            };
        };
        responses: {
            /** @description The broker confirmed every delivery. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResendAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `not_resendable`: the request was refused, nothing to deliver; `payload_not_stored`: no stored payload (or not yet: retry in a few seconds); `no_targets`, `target_disabled`, `target_flagged`: nothing enabled to deliver to; `resend_limit_reached`: resends of this event already added 100 deliveries (a resend to n targets adds n), the most one event may have, so its row stays small. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "not_resendable" | "payload_not_stored" | "no_targets" | "target_disabled" | "target_flagged" | "resend_limit_reached";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ResendUnavailable"];
        };
    };
    rerunActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the event id (`evt_…`) */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted by the pipeline; being delivered. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RerunAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `not_quarantined`: the row is not a quarantined request (accepted, or refused before authentication passed, or by a limit); `quarantine_bound_reached`: it was refused when the account’s hourly quarantine bound was used up, so nothing was kept; `payload_not_stored`: the kept request has not reached the log yet (retry in a few seconds). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "not_quarantined" | "quarantine_bound_reached" | "payload_not_stored";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            /** @description `rerun_rejected`: the pipeline refused it again. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RerunRejected"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["GatewayUnavailable"];
        };
    };
    listBulkRetries: {
        parameters: {
            query?: {
                /** @description jobs per page */
                limit?: number;
                /** @description the `next_cursor` of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRetryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    createBulkRetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BulkRetryCreate"];
            };
        };
        responses: {
            /** @description The job, queued. */
            202: {
                headers: {
                    /** @description `/v1/bulk-retries/<id>` */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRetry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    previewBulkRetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BulkRetryCreate"];
            };
        };
        responses: {
            /** @description The counts; nothing was queued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRetryPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getBulkRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the bulk retry id (`brj_…`); another account’s job is not found */
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRetry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelBulkRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the bulk retry id (`brj_…`); another account’s job is not found */
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, `cancel_requested: true`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRetry"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `job_finished`: the job already ended. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "job_finished";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    previewBulkRerun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BulkRerunCreate"];
            };
        };
        responses: {
            /** @description The count; nothing was run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRerunPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createBulkRerun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["BulkRerunCreate"];
            };
        };
        responses: {
            /** @description What became of each. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRerun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `rerun_set_too_large`: more than 100 quarantined requests in the window (or more than 500 refusals to look through): narrow it with `endpoint_id`, `from` or `to`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "rerun_set_too_large";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["GatewayUnavailable"];
        };
    };
    getDailyUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DailyUsage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["UsageUnavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["UsageUnavailable"];
        };
    };
    getUsageV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["UsageUnavailable"];
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountPlan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    updatePlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanPatch"];
            };
        };
        responses: {
            /** @description The plan as saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountPlan"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret — shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key id (`key_…`) */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `last_owner_key`: the account would have no owner key left. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        code: "last_owner_key";
                        message: string;
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    listAccountAudit: {
        parameters: {
            query?: {
                /** @description rows per page */
                limit?: number;
                /** @description the `next_before` of the previous page */
                before?: string;
                /** @description only the rows of this endpoint */
                endpoint_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountAuditPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getIdentityProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentityProvider"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    setIdentityProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdentityProviderSet"];
            };
        };
        responses: {
            /** @description The provider as saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentityProvider"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    removeIdentityProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every member. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the member id (`mem_…`) */
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every open invitation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description Sent. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `identity_provider_unset`, `too_many_invitations`: the account has no identity provider, or 50 open invitations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "identity_provider_unset" | "too_many_invitations";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description `mail_not_sent`: the mail relay did not take it; nothing was kept. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "mail_not_sent";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
            /** @description `mail_unavailable`: no mail relay is configured (SMTP_HOST). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description stable, machine-readable
                         * @enum {string}
                         */
                        code: "mail_unavailable";
                        /** @description for people; validation errors join every field error as `field: message; …` */
                        message: string;
                    };
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the invitation id (`inv_…`) */
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    listAlertRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every rule of the account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRuleList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    createAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertRuleInput"];
            };
        };
        responses: {
            /** @description The rule, defaults filled in. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["AlertRulesFull"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the alert rule id (`ar_…`) */
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    replaceAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the alert rule id (`ar_…`) */
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertRuleInput"];
            };
        };
        responses: {
            /** @description The rule as saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the alert rule id (`ar_…`) */
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
        };
    };
    testAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the alert rule id (`ar_…`) */
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued for delivery; each delivery’s activity row is named. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    listAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                        checks: {
                            mongodb: boolean;
                            redis: boolean;
                        };
                    };
                };
            };
            500: components["responses"]["InternalError"];
            /** @description A dependency did not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "not_ready";
                        checks: {
                            mongodb: boolean;
                            redis: boolean;
                        };
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        info: Record<string, unknown>;
                        paths: Record<string, unknown>;
                    };
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
}

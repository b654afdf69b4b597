// Real exchanges with the API, recorded from the application itself by `make api-types`
// (scripts/openapi.py; `make lint` fails when one no longer matches what the API answers, and a
// backend test replays them on PostgreSQL). Tests that render these render what the API really sends.

// JSON imports widen every string (an enum's "iops" reads as string), so the recorded bodies are
// given their schema types here: they are the API's answers, by construction.

import type { ApiErrorBody, RequestOf, ResponseOf } from "../lib/api/types";
import presets from "./fixtures/presets.json";
import validateJobsRejected from "./fixtures/validate-jobs-rejected.json";
import validateJobsSizes from "./fixtures/validate-jobs-sizes.json";

/** GET /api/v1/presets: every preset the API ships. */
export const realPresets = presets.response.body as unknown as ResponseOf<"/api/v1/presets">;

/** POST /api/v1/fio/validate-jobs with a job typed as the plan editor sends it ("4k", "1MiB"). */
export const realSizesValidation = {
  request: validateJobsSizes.request.body as RequestOf<"/api/v1/fio/validate-jobs", "post">,
  response: validateJobsSizes.response.body as ResponseOf<"/api/v1/fio/validate-jobs", "post">,
};

/** The same job with options fio refuses ("bs": "4q", "iodepth": 0): the API's 422 error body. */
export const realRejectedValidation = {
  request: validateJobsRejected.request.body as RequestOf<"/api/v1/fio/validate-jobs", "post">,
  status: validateJobsRejected.response.status as 422,
  response: validateJobsRejected.response.body as ApiErrorBody,
};

import { apiUrl } from "../../../lib/api-client";
import type { Result } from "../../../lib/api/types";

/** GET /results/{id}/raw: fio's output as it was written or uploaded (the session cookie authenticates). */
export function rawOutputUrl(id: number): string {
  return apiUrl(`/results/${id}/raw`);
}

/** GET /results/{id}/job-file: the jobs a run executed, or the options an imported output printed. */
export function jobFileUrl(id: number): string {
  return apiUrl(`/results/${id}/job-file`);
}

/** A run's result always has its job file; an import only when fio printed job options. */
export function hasJobFile(result: Pick<Result, "run_id" | "options">): boolean {
  return result.run_id !== null || Object.keys(result.options).length > 0;
}

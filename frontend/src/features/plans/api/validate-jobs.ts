import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { FioJob, FioJobIn, Schema } from "../../../lib/api/types";
import { useDebounced } from "../../../lib/use-debounced";

/** How long typing must pause before the API is asked. */
export const VALIDATE_DEBOUNCE_MS = 400;

/** POST /fio/validate-jobs is a pure function of the jobs, so it is cached like a query keyed by them. */
export function validateJobsQueryOptions(jobs: FioJobIn[]) {
  return queryOptions({
    queryKey: ["fio", "validate-jobs", jobs],
    queryFn: ({ signal }) =>
      apiRequest<Schema<"JobsOut">>("/fio/validate-jobs", { method: "POST", json: { jobs }, signal }),
    staleTime: Infinity,
    retry: false,
  });
}

export type JobsValidation =
  | { status: "none" | "checking" }
  | { status: "valid"; jobs: FioJob[] }
  | { status: "invalid"; error: unknown };

/**
 * The API's reading of jobs as typed: what fio will run (sizes in bytes, times in seconds) or the
 * API's reason per offending option. Asked once typing pauses; "checking" until the answer for
 * exactly these jobs is in.
 */
export function useValidatedJobs(jobs: FioJobIn[]): JobsValidation {
  const typed = JSON.stringify(jobs);
  const settled = useDebounced(typed, VALIDATE_DEBOUNCE_MS);
  const query = useQuery({
    ...validateJobsQueryOptions(JSON.parse(settled) as FioJobIn[]),
    enabled: settled === typed && jobs.length > 0,
  });
  if (jobs.length === 0) return { status: "none" };
  if (settled !== typed || query.isPending) return { status: "checking" };
  if (query.isError) return { status: "invalid", error: query.error };
  return { status: "valid", jobs: query.data.jobs };
}

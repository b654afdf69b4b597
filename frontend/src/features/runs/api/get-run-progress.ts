import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { RunProgress } from "../../../lib/api/types";
import { runsQueryKey } from "./list-runs";

/** Without the event stream, a live run's series is re-read this often. */
export const PROGRESS_POLL_MS = 5_000;

export function runProgressQueryKey(id: number) {
  return [...runsQueryKey, "progress", id] as const;
}

interface RunProgressOptions {
  /** The run has ended: its series is complete (read once more, then kept). */
  final?: boolean;
  /** Re-read this often while the run is live (false: not at all). */
  pollMs?: number | false;
}

/** GET /runs/{id}/progress: every host's stored per-second series (history of a live or ended run). */
export function runProgressQueryOptions(id: number, { final = false, pollMs = false }: RunProgressOptions = {}) {
  return queryOptions({
    // The end of the run is a new key: the complete series is read once it exists.
    queryKey: [...runProgressQueryKey(id), final ? "final" : "live"],
    queryFn: ({ signal }) => apiRequest<RunProgress>(`/runs/${id}/progress`, { signal }),
    refetchInterval: (query) => (final || query.state.status === "error" ? false : pollMs),
    refetchIntervalInBackground: false,
    ...(final ? { staleTime: Infinity } : {}),
    // Keep drawing what was read live while the complete series loads.
    placeholderData: keepPreviousData,
  });
}

export function useRunProgress(id: number, options: RunProgressOptions & { enabled?: boolean } = {}) {
  return useQuery({ ...runProgressQueryOptions(id, options), enabled: options.enabled ?? true });
}

// GET /runs/{id}/events: Server-Sent Events with the run's status on every change and one
// `progress` sample per host-second, until the run ends. The browser sends the session cookie
// itself (same origin). Status changes go straight into the run's query; samples are kept here.

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useReducer } from "react";
import { apiUrl } from "../../../lib/api-client";
import type { ProgressSample, RunProgressEvent, RunStatus, RunStatusEvent } from "../../../lib/api/types";
import { RUN_STATUSES, isRunActive } from "../../../lib/status";
import { runQueryOptions } from "./get-run";
import { runsQueryKey } from "./list-runs";

/** Samples kept per host: an hour of seconds. */
export const MAX_LIVE_SAMPLES = 3_600;

/** Live samples by host name, oldest first. */
export type LiveSamples = Readonly<Record<string, readonly ProgressSample[]>>;

export function runEventsUrl(runId: number): string {
  return apiUrl(`/runs/${runId}/events`);
}

/**
 * One more sample for its host. A reconnected stream replays the run from its first sample:
 * samples not newer than the host's last are dropped.
 */
export function addLiveSample(samples: LiveSamples, event: RunProgressEvent): LiveSamples {
  const { host_name: host, ...sample } = event;
  const current = samples[host] ?? [];
  const last = current[current.length - 1];
  if (last && sample.id <= last.id) return samples;
  const next = [...current, sample];
  return { ...samples, [host]: next.length > MAX_LIVE_SAMPLES ? next.slice(-MAX_LIVE_SAMPLES) : next };
}

function parse<T>(event: Event): T | null {
  try {
    return JSON.parse(String((event as MessageEvent).data)) as T;
  } catch {
    return null;
  }
}

function isRunStatus(value: unknown): value is RunStatus {
  return RUN_STATUSES.includes(value as RunStatus);
}

/**
 * Follows a run's event stream while enabled and returns the samples it pushed; closes it when
 * the run ends or the page goes. onConnectedChange hears whether the stream is open (status
 * changes arrive as they happen), so polling can slow down meanwhile; it must be stable.
 */
export function useRunEvents(
  runId: number,
  enabled: boolean,
  onConnectedChange: (connected: boolean) => void,
): LiveSamples {
  const queryClient = useQueryClient();
  const [samples, addSample] = useReducer(addLiveSample, {});

  useEffect(() => {
    // Without EventSource (old browsers, tests that do not fake it) polling alone follows the run.
    if (!enabled || typeof EventSource === "undefined") return;
    const source = new EventSource(runEventsUrl(runId));
    const runKey = runQueryOptions(runId).queryKey;

    const onOpen = () => onConnectedChange(true);
    // EventSource reconnects by itself after an error; until then polling takes over.
    const onError = () => onConnectedChange(false);
    const onProgress = (event: Event) => {
      const sample = parse<RunProgressEvent>(event);
      if (sample && typeof sample.id === "number" && typeof sample.host_name === "string") addSample(sample);
    };
    const onStatus = (event: Event) => {
      const status = parse<RunStatusEvent>(event)?.status;
      const known = isRunStatus(status);
      const changed = known && queryClient.getQueryData(runKey)?.status !== status;
      if (known) queryClient.setQueryData(runKey, (run) => (run && run.status !== status ? { ...run, status } : run));
      const ended = !known || !isRunActive(status);
      if (ended) {
        // The server closes the stream now, and EventSource would reconnect to replay it.
        source.close();
        onConnectedChange(false);
        void queryClient.invalidateQueries({ queryKey: [...runsQueryKey, "list"] });
      }
      // Start and end times, hosts and figures come with the run: read it again.
      if (changed || ended) void queryClient.invalidateQueries({ queryKey: runKey });
    };

    source.addEventListener("open", onOpen);
    source.addEventListener("error", onError);
    source.addEventListener("progress", onProgress);
    source.addEventListener("status", onStatus);
    return () => {
      source.removeEventListener("open", onOpen);
      source.removeEventListener("error", onError);
      source.removeEventListener("progress", onProgress);
      source.removeEventListener("status", onStatus);
      source.close();
      onConnectedChange(false);
    };
  }, [runId, enabled, queryClient, onConnectedChange]);

  return samples;
}

import { describe, expect, it } from "vitest";
import { makeProgressEvent, makeProgressSample } from "../../../test/factories";
import { addLiveSample, MAX_LIVE_SAMPLES, type LiveSamples } from "../api/run-events";
import { mergeProgress, throughputChartData } from "./progress-series";

describe("per-second series", () => {
  it("keeps the last hour of live samples per host and ignores replayed ones", () => {
    let live: LiveSamples = {};
    for (let id = 1; id <= MAX_LIVE_SAMPLES + 10; id += 1) {
      live = addLiveSample(live, makeProgressEvent({ id, elapsed_s: id }));
    }
    live = addLiveSample(live, makeProgressEvent({ id: 5, elapsed_s: 5 }));

    const samples = live["nfs-client-01"]!;
    expect(samples).toHaveLength(MAX_LIVE_SAMPLES);
    expect(samples[0]!.id).toBe(11);
    expect(samples[samples.length - 1]!.id).toBe(MAX_LIVE_SAMPLES + 10);
  });

  it("merges the stored series with live samples, one row per second and series per host and direction", () => {
    const stored = [
      { host_name: "a", assignment_id: 1, status: "running" as const, samples: [makeProgressSample({ id: 1, elapsed_s: 1 })] },
      { host_name: "b", assignment_id: 2, status: "running" as const, samples: [makeProgressSample({ id: 2, elapsed_s: 1 })] },
    ];
    let live: LiveSamples = {};
    live = addLiveSample(live, makeProgressEvent({ id: 2, host_name: "b", elapsed_s: 1 }));
    live = addLiveSample(
      live,
      makeProgressEvent({
        id: 3,
        host_name: "b",
        elapsed_s: 2,
        directions: { read: { iops: 900, bw_bytes: 1, lat_mean_ns: 2 }, write: { iops: 300, bw_bytes: 3, lat_mean_ns: 4 } },
      }),
    );

    const hosts = mergeProgress(stored, live);
    expect(hosts.map((host) => [host.host, host.samples.map((sample) => sample.id)])).toEqual([
      ["a", [1]],
      ["b", [2, 3]],
    ]);

    const { rows, series } = throughputChartData(hosts, "iops");
    expect(Object.values(series).map((item) => item.label)).toEqual(["a read", "b read", "b write"]);
    expect(rows).toEqual([
      { second: 1, s0: 15_000, s1: 15_000 },
      { second: 2, s1: 900, s2: 300 },
    ]);
  });
});

/**
 * fio outputs for journeys that import results: one real fio json+ output, reshaped to read at
 * another rate and to have been measured at another moment (bandwidth and latency to match).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** One real fio json+ output: a second of 4 KiB random reads by `job` in `directory`. */
export function realFioOutput(job: string, directory: string): Record<string, unknown> {
  fs.mkdirSync(directory, { recursive: true });
  const stdout = execFileSync(
    "fio",
    [
      `--name=${job}`,
      "--rw=randread",
      "--bs=4k",
      "--size=4m",
      "--runtime=1",
      "--time_based",
      "--ioengine=psync",
      "--output-format=json+",
      `--directory=${directory}`,
    ],
    { encoding: "utf-8" },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The output as if it read at `iops`, measured at `at` (epoch seconds), as fio's JSON text. */
export function readingAt(base: Record<string, unknown>, iops: number, at: number): string {
  const doc = structuredClone(base) as {
    timestamp: number;
    timestamp_ms: number;
    jobs: { read: Record<string, number | Record<string, unknown>> }[];
  };
  doc.timestamp = at;
  doc.timestamp_ms = at * 1000;
  const read = doc.jobs[0]!.read;
  const latencyNs = 1e9 / iops;
  read.iops = iops;
  read.iops_mean = iops;
  read.bw_bytes = Math.round(iops * 4096);
  read.bw = Math.round((iops * 4096) / 1024);
  for (const key of ["lat_ns", "clat_ns"]) {
    const stats = read[key] as { mean: number; min: number; max: number; percentile?: Record<string, number> };
    stats.mean = latencyNs;
    stats.min = Math.min(stats.min, latencyNs);
    stats.max = Math.max(stats.max, latencyNs * 3);
    for (const percentile of Object.keys(stats.percentile ?? {})) {
      stats.percentile![percentile] = Math.round(latencyNs * (percentile.startsWith("99") ? 2 : 1));
    }
  }
  return JSON.stringify(doc);
}

import type { PlannerRequest } from "../api/plan-capacity";

/** A workload an engineer sizing storage for a new service starts from. */
export interface WorkloadPreset {
  name: string;
  description: string;
  request: PlannerRequest;
}

export const WORKLOAD_PRESETS: WorkloadPreset[] = [
  {
    name: "OLTP database",
    description: "20,000 random-read IOPS at 8 KiB with p99 under 2 ms, and 300 MB/s of log writes",
    request: {
      demands: [
        { figure: "iops", value: 20000, rw: "randread", bs: "8k", latency_percentile: 99, latency_ms: 2 },
        { figure: "mbps", value: 300, rw: "write", bs: "1M" },
      ],
      constraints: { protocol: "block" },
    },
  },
  {
    name: "Log writer",
    description: "200 MB/s of sequential 1 MiB writes",
    request: { demands: [{ figure: "mbps", value: 200, rw: "write", bs: "1M" }], constraints: {} },
  },
  {
    name: "File share for home directories",
    description: "5,000 random-read IOPS at 4 KiB and 150 MB/s of reads over NFS",
    request: {
      demands: [
        { figure: "iops", value: 5000, rw: "randread", bs: "4k" },
        { figure: "mbps", value: 150, rw: "read", bs: "1M" },
      ],
      constraints: { protocol: "nfs", data_gib: 2000 },
    },
  },
];

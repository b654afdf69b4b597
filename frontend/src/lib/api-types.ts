// Types of the storbench HTTP API (/api/v1), written to match the contract.
// Timestamps are ISO 8601 strings; latencies are nanoseconds; sizes are bytes.

export type IsoDateTime = string;

export interface ApiErrorDetail {
  field?: string;
  option?: string;
  value?: string;
  reason: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  errors?: ApiErrorDetail[];
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageParams {
  limit?: number;
  offset?: number;
}

// Auth

export interface TokenResponse {
  access_token: string;
  token_type: "bearer";
  expires_at: IsoDateTime;
}

export type Role = "owner" | "member" | "viewer";

export interface Team {
  id: number;
  name: string;
}

export interface Me {
  id: number;
  email: string;
  team: Team;
  role: Role;
}

export interface Health {
  status: "ok";
  version: string;
  mode: "embedded" | "production";
}

// Hosts

export type HostStatus = "online" | "busy" | "offline";

export interface Host {
  id: number;
  name: string;
  status: HostStatus;
  last_seen_at: IsoDateTime | null;
  fio_version: string | null;
  facts: Record<string, unknown>;
  created_at: IsoDateTime;
}

export interface HostCreate {
  name: string;
}

export interface HostCreated extends Host {
  /** Shown once: the worker authenticates with it. */
  worker_token: string;
}

// Targets

export type TargetKind = "directory" | "block_device";

export interface Target {
  id: number;
  name: string;
  host_id: number;
  host_name: string;
  path: string;
  kind: TargetKind;
  storage_class: string | null;
  description: string | null;
  created_at: IsoDateTime;
}

export interface TargetCreate {
  name: string;
  host_id: number;
  path: string;
  kind: TargetKind;
  storage_class?: string;
  description?: string;
}

// fio jobs

export type FioRw =
  | "read"
  | "write"
  | "randread"
  | "randwrite"
  | "rw"
  | "readwrite"
  | "randrw"
  | "trim"
  | "randtrim"
  | "trimwrite"
  | (string & {});

/** One fio job section; sizes are normalised to bytes, times to seconds. */
export interface FioJob {
  name: string;
  rw: FioRw;
  bs?: number;
  iodepth?: number;
  numjobs?: number;
  size?: number | string;
  runtime?: number;
  time_based?: boolean;
  ramp_time?: number;
  direct?: boolean;
  ioengine?: string;
  rwmixread?: number;
  [option: string]: unknown;
}

export type PresetMeasure = "latency" | "iops" | "throughput";

export interface ExpectedFigure {
  metric: string;
  value: number;
  unit: string;
  note: string | null;
}

export interface Preset {
  id: string;
  name: string;
  source: string;
  measures: PresetMeasure;
  description: string;
  platform: "linux" | "windows";
  jobs: FioJob[];
  global_options: Record<string, string>;
  expected: ExpectedFigure[];
}

// Plans

export interface Plan {
  id: number;
  name: string;
  description: string | null;
  jobs: FioJob[];
  preset_id: string | null;
  created_at: IsoDateTime;
}

export interface PlanCreate {
  name: string;
  description?: string;
  jobs: FioJob[];
  preset_id?: string;
}

export interface FioValidateRequest {
  text: string;
}

export interface FioValidateResponse {
  jobs: FioJob[];
}

// Runs and results

export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

export interface RunTarget {
  id: number;
  name: string;
  path: string;
  kind: TargetKind;
}

export interface RunHost {
  id: number;
  name: string;
}

export interface Latency {
  min_ns: number;
  max_ns: number;
  mean_ns: number;
  stddev_ns: number;
  /** Keys are percentiles as fio prints them: "50", "99", "99.9", ... */
  percentiles: Partial<Record<"50" | "90" | "95" | "99" | "99.9" | "99.99", number>> &
    Record<string, number | undefined>;
}

export interface Direction {
  iops: number;
  bw_bytes: number;
  io_bytes: number;
  runtime_ms: number;
  total_ios: number;
  lat_ns: Latency | null;
  clat_ns: Latency | null;
  slat_ns: Latency | null;
}

export type DirectionName = "read" | "write" | "trim";

export interface Result {
  id: number;
  job_name: string;
  host_name: string;
  fio_version: string | null;
  directions: Partial<Record<DirectionName, Direction>>;
  cpu: { usr_pct: number; sys_pct: number; ctx: number };
  options: Record<string, string>;
}

export interface Run {
  id: number;
  status: RunStatus;
  plan_id: number | null;
  plan_name: string | null;
  target: RunTarget;
  host: RunHost;
  jobs: FioJob[];
  created_at: IsoDateTime;
  started_at: IsoDateTime | null;
  finished_at: IsoDateTime | null;
  error: string | null;
  /** Omitted or empty in list responses. */
  results?: Result[];
}

export type RunCreate =
  | { target_id: number; plan_id: number; jobs?: never }
  | { target_id: number; jobs: FioJob[]; plan_id?: never };

export interface RunListParams extends PageParams {
  status?: RunStatus;
  target_id?: number;
}

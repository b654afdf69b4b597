// Types of the storbench HTTP API (/api/v1), written to match the contract.
// Timestamps are ISO 8601 strings; latencies are nanoseconds; sizes are bytes.

export type IsoDateTime = string;

export interface ApiErrorDetail {
  field?: string;
  option?: string;
  value?: string;
  /** The fio job an option error concerns (run start, job file parsing). */
  job?: string;
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

/** The browser session: who is signed in, and the CSRF token to echo in X-CSRF-Token on changes. */
export interface Session extends Me {
  csrf_token: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface PasswordChange {
  current_password: string;
  /** At least 10 characters. */
  new_password: string;
}

// Teams, members and invitations

/** A team the user belongs to; `current` is the one the session acts in. */
export interface TeamMembership {
  id: number;
  name: string;
  role: Role;
  current: boolean;
}

export interface TeamCreate {
  name: string;
}

export interface Member {
  user_id: number;
  email: string;
  role: Role;
  joined_at: IsoDateTime;
}

export interface MemberUpdate {
  role: Role;
}

export interface Invitation {
  id: number;
  role: Role;
  /** Only this address may accept; null: anyone with the link. */
  email: string | null;
  expires_at: IsoDateTime;
  accepted_at: IsoDateTime | null;
  revoked_at: IsoDateTime | null;
}

export interface InvitationCreate {
  role: Role;
  email?: string;
  expires_in_hours: number;
}

export interface InvitationCreated extends Invitation {
  /** Shown once. */
  token: string;
  /** Path of the invitation page: "/invite/<token>". */
  link: string;
}

export interface InvitationAccept {
  token: string;
  email: string;
  password: string;
}

// API and enrollment tokens

export interface ApiToken {
  id: number;
  name: string | null;
  role: Role | null;
  created_at: IsoDateTime;
  expires_at: IsoDateTime | null;
  last_used_at: IsoDateTime | null;
  revoked_at: IsoDateTime | null;
}

export interface ApiTokenCreate {
  name: string;
  role: Role;
  /** null: never expires. */
  expires_in_days: number | null;
}

export interface ApiTokenCreated extends ApiToken {
  /** Shown once. */
  token: string;
}

export interface EnrollmentToken {
  id: number;
  name: string | null;
  created_at: IsoDateTime;
  expires_at: IsoDateTime;
  /** null: any number of hosts. */
  uses_left: number | null;
  last_used_at: IsoDateTime | null;
  revoked_at: IsoDateTime | null;
  /** The existing host this token re-enrolls (an owner's explicit replace), if any. */
  replaces_host_id?: number | null;
}

export interface EnrollmentTokenCreate {
  name?: string;
  expires_in_hours: number;
  /** How many hosts may enroll with it (default 1). */
  uses?: number;
  /** Re-enroll this existing host: new credential, same name and history. */
  replaces_host_id?: number;
}

export interface EnrollmentTokenCreated extends EnrollmentToken {
  /** Shown once. */
  token: string;
  command: string;
}

// Audit log

export interface AuditEvent {
  id: number;
  created_at: IsoDateTime;
  actor: string;
  action: string;
  resource_type: string;
  resource_id: number | null;
  hosts: string[];
  details: Record<string, unknown>;
}

export interface AuditListParams extends PageParams {
  action?: string;
}

export interface Health {
  status: "ok";
  version: string;
  mode: "embedded" | "production";
}

// Hosts

export type HostStatus = "online" | "busy" | "offline" | "revoked";

export interface Host {
  id: number;
  name: string;
  /** Free labels (e.g. "rack4", "nfs-client"): a run can name every host carrying one. */
  labels: string[];
  status: HostStatus;
  last_seen_at: IsoDateTime | null;
  fio_version: string | null;
  facts: Record<string, unknown>;
  created_at: IsoDateTime;
}

export interface HostCreate {
  name: string;
}

/** PATCH /hosts/{id}: the host's labels, replaced as a whole (members and owners). */
export interface HostUpdate {
  /** Each matches ^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$; at most 50. */
  labels: string[];
}

/** A host's new worker token after rotation, shown only this once. */
export interface HostCredential {
  host_id: number;
  worker_token: string;
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
  /** Writes may destroy this block device's data (set by a team owner). */
  destructive: boolean;
  created_at: IsoDateTime;
}

/** PATCH /targets/{id}: only the fields given change; `destructive` is for owners, block devices only. */
export interface TargetUpdate {
  destructive?: boolean;
  storage_class?: string | null;
  description?: string | null;
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
  /** Hosts of a multi-host run on a directory share one set of files (otherwise each writes its own). */
  shared_files: boolean;
  created_at: IsoDateTime;
}

export interface PlanCreate {
  name: string;
  description?: string;
  jobs: FioJob[];
  preset_id?: string;
  /** Default false. */
  shared_files?: boolean;
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
  /** Missing from some imported outputs (text, old fio). */
  total_ios: number | null;
  lat_ns: Latency | null;
  clat_ns: Latency | null;
  slat_ns: Latency | null;
}

export type DirectionName = "read" | "write" | "trim";

export interface Cpu {
  usr_pct: number;
  sys_pct: number;
  ctx: number;
  majf?: number | null;
  minf?: number | null;
}

/** One job's figures on one host, measured by a run or imported from an fio output. */
export interface Result {
  id: number;
  /** Null for imported results. */
  run_id: number | null;
  target_id: number | null;
  storage_class: string | null;
  label: string | null;
  created_at: IsoDateTime;
  job_name: string;
  host_name: string;
  fio_version: string | null;
  /** Stored from an uploaded fio output rather than measured by a run. */
  imported: boolean;
  /** fio was stopped before the end: the figures cover only the time it ran. */
  partial: boolean;
  directions: Partial<Record<DirectionName, Direction>>;
  /** Absent from some imported outputs. */
  cpu: Cpu | null;
  options: Record<string, unknown>;
}

export interface ResultListParams extends PageParams {
  target_id?: number;
  storage_class?: string;
  /** true: only imported; false: only measured by runs. */
  imported?: boolean;
  job_name?: string;
}

export type ImportSourceFormat = "json" | "json+" | "text" | "client_server" | (string & {});

/** Form fields of POST /results/import besides the file. */
export interface ResultImportFields {
  target_id?: number;
  storage_class?: string;
  host_name?: string;
  label?: string;
}

export interface ResultImport {
  source_format: ImportSourceFormat;
  fio_version: string | null;
  results: Result[];
}

/** One host's share of a run (a run on several hosts has one per host). */
export interface Assignment {
  host: RunHost;
  status: RunStatus;
  /** The host passed the start barrier (files laid out, waiting for the common start). */
  ready_at: IsoDateTime | null;
  started_at: IsoDateTime | null;
  /** When fio started on the host, on the server's clock. */
  fio_started_at: IsoDateTime | null;
  finished_at: IsoDateTime | null;
  /** The host's worker's own CPU use while fio ran, in percent of one core (how much it could disturb fio). */
  worker_cpu_percent?: number | null;
  error: string | null;
}

/** All hosts together over the window in which every host was running. */
export interface AggregateDirection {
  iops: number;
  bw_bytes: number;
  /** Percentiles of the summed clat histograms (never averaged per-host percentiles). */
  clat_percentiles_ns: Partial<Record<"50" | "90" | "95" | "99" | "99.9" | "99.99", number>> &
    Record<string, number | undefined>;
  clat_samples: number;
}

/** What a shared file system delivered to all hosts of a run at once (completed multi-host runs). */
export interface RunAggregate {
  hosts: number;
  /** Length of the window in which every host was running, in seconds. */
  window_s: number;
  /** Spread of the hosts' fio start times; null when a host did not report its start. */
  start_skew_ms: number | null;
  directions: Partial<Record<DirectionName, AggregateDirection>>;
  /** How the totals were computed, in words. */
  method: string;
}

export interface Run {
  id: number;
  status: RunStatus;
  plan_id: number | null;
  /** The saved plan's or the preset's name; null for inline jobs. */
  plan_name: string | null;
  target: RunTarget;
  host: RunHost;
  jobs: FioJob[];
  /** All hosts worked on one set of files (otherwise each host wrote its own). */
  shared_files: boolean;
  created_at: IsoDateTime;
  started_at: IsoDateTime | null;
  finished_at: IsoDateTime | null;
  error: string | null;
  /** The common instant every host starts fio (multi-host runs). */
  start_at?: IsoDateTime | null;
  assignments?: Assignment[];
  /** Omitted or empty in list responses. */
  results?: Result[];
  /** Completed runs on more than one host only. */
  aggregate?: RunAggregate | null;
}

/** One second of one direction's progress on one host. */
export interface ProgressFigures {
  iops: number;
  bw_bytes: number;
  lat_mean_ns: number;
}

/** One second of one host's progress, as fio reported it. */
export interface ProgressSample {
  /** Increasing over the whole run (all hosts): the order samples landed. */
  id: number;
  elapsed_s: number;
  /** null while fio cannot estimate the end. */
  eta_s: number | null;
  percent: number | null;
  measured_at: IsoDateTime | null;
  received_at: IsoDateTime;
  directions: Partial<Record<DirectionName, ProgressFigures>>;
}

export interface HostProgress {
  host_name: string;
  assignment_id: number;
  status: RunStatus;
  samples: ProgressSample[];
}

/** GET /runs/{id}/progress: the stored per-second series of every host. */
export interface RunProgress {
  run_id: number;
  status: RunStatus;
  hosts: HostProgress[];
}

/** Data of the `status` event of GET /runs/{id}/events. */
export interface RunStatusEvent {
  run_id: number;
  status: RunStatus;
}

/** Data of the `progress` event of GET /runs/{id}/events: one host-second. */
export interface RunProgressEvent extends ProgressSample {
  host_name: string;
}

/** Writes to a block device also need confirm_destructive (and a destructive target). */
/** Exactly one source of jobs: a saved plan, a preset (the run is named after it) or inline jobs (unnamed). */
export type RunCreate = (
  | { target_id: number; plan_id: number; preset_id?: never; jobs?: never }
  | { target_id: number; preset_id: string; plan_id?: never; jobs?: never }
  | { target_id: number; jobs: FioJob[]; plan_id?: never; preset_id?: never }
) & {
  confirm_destructive?: boolean;
  /** More hosts that mount the target's path; all start fio at the same instant. */
  host_ids?: number[];
  /** Also every host carrying this label. */
  host_label?: string;
  /**
   * All hosts work on one set of files in the target directory (directory targets only: true on a
   * block device is refused). Absent or null: as the plan says, each host its own without a plan.
   */
  shared_files?: boolean | null;
};

export interface RunListParams extends PageParams {
  status?: RunStatus;
  target_id?: number;
}

// API objects with keyword defaults, typed by the generated OpenAPI types (lib/api/types.ts): a
// factory cannot invent a field the API does not send (tsc fails).

import type {
  ApiToken,
  Assignment,
  AuditEvent,
  Direction,
  EnrollmentToken,
  ExpectedSpec,
  Finding,
  FioJob,
  Health,
  Host,
  Invitation,
  Me,
  Member,
  Plan,
  Preset,
  ProgressSample,
  Result,
  Role,
  Run,
  RunAggregate,
  RunProgressEvent,
  Schema,
  Session,
  SpecCheck,
  SpecFigure,
  StorageClass,
  Target,
  TeamMembership,
} from "../lib/api/types";

type WorkerSetup = Schema<"WorkerSetup">;
import { fakeRoutes } from "./fake-api";

const CREATED = "2025-03-01T10:00:00Z";

/** Jobs as the API returns them: normalised by its job model (the schema's FioJobOut). */
function jobs(...items: FioJob[]): FioJob[] {
  return items;
}

/** One normalised job (POST /fio/validate and /fio/validate-jobs answer a list of these). */
export function makeFioJob(overrides: Partial<FioJob> = {}): FioJob {
  return { name: "randread", rw: "randread", bs: 4096, ...overrides };
}

/** A list answer: { items, total } (each list of the API has its own component, all of this shape). */
export function page<T>(items: T[], total = items.length): { items: T[]; total: number } {
  return { items, total };
}

/** A keyset page of results as GET /results answers it. */
export function resultPage(
  items: Result[],
  { total = items.length, nextCursor = null, estimate = false }: { total?: number; nextCursor?: string | null; estimate?: boolean } = {},
): Schema<"ResultList"> {
  return { items, total, next_cursor: nextCursor, total_is_estimate: estimate };
}

export function makeMe(overrides: Partial<Me> = {}): Me {
  return { id: 1, email: "ada@example.com", team: { id: 1, name: "Storage QA" }, role: "owner", ...overrides };
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return { ...makeMe(), csrf_token: "csrf-test-token", ...overrides };
}

export function makeTeamMembership(overrides: Partial<TeamMembership> = {}): TeamMembership {
  return { id: 1, name: "Storage QA", role: "owner", current: true, ...overrides };
}

export function makeMember(overrides: Partial<Member> = {}): Member {
  return { user_id: 1, email: "ada@example.com", role: "owner", joined_at: CREATED, ...overrides };
}

export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  return {
    id: 4,
    role: "member",
    email: null,
    expires_at: "2099-01-01T00:00:00Z",
    accepted_at: null,
    revoked_at: null,
    ...overrides,
  };
}

export function makeApiToken(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 6,
    name: "nightly regression",
    role: "member",
    created_at: CREATED,
    expires_at: "2099-01-01T00:00:00Z",
    last_used_at: null,
    revoked_at: null,
    ...overrides,
  };
}

export function makeEnrollmentToken(overrides: Partial<EnrollmentToken> = {}): EnrollmentToken {
  return {
    id: 2,
    name: "rack 4",
    created_at: CREATED,
    expires_at: "2099-01-01T00:00:00Z",
    uses_left: null,
    last_used_at: null,
    revoked_at: null,
    ...overrides,
  };
}

export function makeAuditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: 30,
    created_at: CREATED,
    actor: "ada@example.com",
    action: "run.started",
    resource_type: "run",
    resource_id: 7,
    hosts: ["nfs-client-01"],
    details: { target: "netapp-vol1" },
    ...overrides,
  };
}

export function makeHost(overrides: Partial<Host> = {}): Host {
  return {
    id: 1,
    name: "nfs-client-01",
    labels: [],
    status: "online",
    last_seen_at: new Date().toISOString(),
    fio_version: "fio-3.36",
    facts: { os: "linux", cpu_count: 8 },
    created_at: CREATED,
    ...overrides,
  };
}

export function makeTarget(overrides: Partial<Target> = {}): Target {
  return {
    id: 3,
    name: "netapp-vol1",
    host_id: 1,
    host_name: "nfs-client-01",
    path: "/mnt/netapp/bench",
    kind: "directory",
    storage_class: "nfs",
    storage_class_id: null,
    capacity_gib: null,
    provisioned_iops: null,
    provisioned_mbps: null,
    description: null,
    destructive: false,
    created_at: CREATED,
    ...overrides,
  };
}

export function makeStorageClass(overrides: Partial<StorageClass> = {}): StorageClass {
  return {
    id: 21,
    name: "AWS gp3",
    vendor: "AWS",
    product: "EBS",
    tier: "gp3",
    protocol: "block",
    medium: "ssd",
    source: "https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html",
    published: true,
    version: 1,
    spec: {
      id: 40,
      version: 1,
      created_at: CREATED,
      created_by: "storbench",
      expectations: [{ metric: "iops", formula: "3000 + provisioned_iops", workload: "any" }],
      min_hosts: 1,
    },
    ...overrides,
  };
}

export function makeSpecFigure(overrides: Partial<SpecFigure> = {}): SpecFigure {
  return {
    metric: "iops",
    workload: "any",
    unit: "IOPS",
    expected: 20_000,
    low: null,
    formula: "min(3 * capacity_gib, 20000)",
    low_formula: null,
    note: null,
    ...overrides,
  };
}

export function makeExpectedSpec(overrides: Partial<ExpectedSpec> = {}): ExpectedSpec {
  return {
    storage_class_id: 21,
    spec_id: 40,
    version: 1,
    capacity_gib: 1000,
    provisioned_iops: null,
    provisioned_mbps: null,
    iops: makeSpecFigure(),
    throughput: makeSpecFigure({ metric: "throughput", unit: "MB/s", expected: 300, formula: "min(0.25 * capacity_gib, 300)" }),
    latency: makeSpecFigure({ metric: "latency", unit: "ms", expected: 2, low: 0.5, formula: "2", low_formula: "0.5" }),
    figures: [],
    min_hosts: 1,
    warnings: [],
    ...overrides,
  };
}

export function makeSpecCheck(overrides: Partial<SpecCheck> = {}): SpecCheck {
  return {
    direction: "read",
    metric: "iops",
    workload: "random_read",
    unit: "IOPS",
    expected: 20_000,
    low: null,
    measured: 20_200,
    percent: 101,
    verdict: "meets",
    formula: "min(3 * capacity_gib, 20000)",
    ...overrides,
  };
}

export function makeFinding(overrides: Partial<Finding> = {}): Finding {
  return {
    code: "queue_depth_low",
    severity: "warning",
    message: "iodepth 1 cannot reach the provisioned IOPS.",
    fix: "Raise iodepth to 32.",
    direction: "read",
    ...overrides,
  };
}

export function makePlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: 5,
    name: "4k random read",
    description: null,
    jobs: jobs({ name: "randread", rw: "randread", bs: 4096, iodepth: 32, runtime: 60, time_based: true, direct: true }),
    preset_id: null,
    shared_files: false,
    created_at: CREATED,
    ...overrides,
  };
}

export function makePreset(overrides: Partial<Preset> = {}): Preset {
  return {
    id: "azure-files-iops",
    name: "Max IOPS",
    source: "Azure Files",
    measures: "iops",
    description: "4 KiB random reads at high queue depth.",
    platform: "linux",
    // As the API sends them: the global options already folded into every job.
    jobs: jobs({ name: "randread", rw: "randread", bs: 4096, iodepth: 64, ioengine: "libaio", direct: true, runtime: 60, time_based: true }),
    global_options: { ioengine: "libaio", direct: "1", runtime: "60", time_based: "1" },
    expected: [{ value: 100000, unit: "IOPS", note: "premium share" }],
    ...overrides,
  };
}

export function makeDirection(overrides: Partial<Direction> = {}): Direction {
  const latency = {
    min_ns: 80_000,
    max_ns: 12_500_000,
    mean_ns: 536_000,
    stddev_ns: 120_000,
    percentiles: { "50": 501_760, "90": 700_416, "95": 800_000, "99": 1_220_608, "99.9": 3_096_576, "99.99": 9_895_936 },
  };
  return {
    iops: 15_258.3,
    bw_bytes: 62_496_000,
    io_bytes: 3_749_760_000,
    runtime_ms: 60_001,
    total_ios: 915_468,
    lat_ns: latency,
    clat_ns: latency,
    slat_ns: null,
    ...overrides,
  };
}

export function makeResult(overrides: Partial<Result> = {}): Result {
  return {
    id: 11,
    run_id: 7,
    target_id: 3,
    storage_class: "nfs",
    label: "netapp-vol1",
    created_at: CREATED,
    measured_at: CREATED,
    job_name: "randread",
    host_name: "nfs-client-01",
    fio_version: "fio-3.36",
    imported: false,
    partial: false,
    directions: { read: makeDirection() },
    cpu: { usr_pct: 12.5, sys_pct: 30.25, ctx: 412_345 },
    options: { rw: "randread", bs: "4k" },
    error: 0,
    storage_class_spec_id: null,
    spec_checks: [],
    findings: [],
    ...overrides,
  };
}

export function makeRun(overrides: Partial<Run> = {}): Run {
  return {
    id: 7,
    status: "queued",
    plan_id: 5,
    plan_name: "4k random read",
    target: { id: 3, name: "netapp-vol1", path: "/mnt/netapp/bench", kind: "directory" },
    host: { id: 1, name: "nfs-client-01" },
    jobs: [{ name: "randread", rw: "randread", bs: 4096, iodepth: 32, runtime: 60, time_based: true, direct: true }],
    shared_files: false,
    created_at: CREATED,
    started_at: null,
    finished_at: null,
    error: null,
    results: [],
    ...overrides,
  };
}

export function makeAssignment(overrides: Partial<Assignment> = {}): Assignment {
  return {
    host: { id: 1, name: "nfs-client-01" },
    status: "completed",
    ready_at: "2025-03-01T10:00:01Z",
    started_at: "2025-03-01T10:00:02Z",
    fio_started_at: "2025-03-01T10:00:02.004Z",
    finished_at: "2025-03-01T10:01:03Z",
    error: null,
    ...overrides,
  };
}

export function makeAggregate(overrides: Partial<RunAggregate> = {}): RunAggregate {
  return {
    hosts: 2,
    window_s: 59.2,
    start_skew_ms: 3.4,
    method: "per-second samples inside the window where every host was running",
    directions: {
      read: {
        iops: 30_516.6,
        bw_bytes: 124_992_000,
        clat_percentiles_ns: { "50": 505_856, "90": 716_800, "95": 815_104, "99": 1_236_992, "99.9": 3_129_344, "99.99": 10_027_008 },
        clat_samples: 1_830_936,
      },
    },
    ...overrides,
  };
}

/** One second of progress on one host (the data of a `progress` event). */
export function makeProgressEvent(overrides: Partial<RunProgressEvent> = {}): RunProgressEvent {
  const elapsed = overrides.elapsed_s ?? 1;
  const measured = new Date(Date.parse("2025-03-01T10:00:02Z") + elapsed * 1000).toISOString();
  return {
    id: 1,
    host_name: "nfs-client-01",
    elapsed_s: elapsed,
    eta_s: 60 - elapsed,
    percent: Math.round((elapsed / 60) * 1000) / 10,
    measured_at: measured,
    received_at: measured,
    directions: { read: { iops: 15_000, bw_bytes: 61_440_000, lat_mean_ns: 530_000 } },
    ...overrides,
  };
}

/** A stored sample (GET /runs/{id}/progress): a progress event without its host. */
export function makeProgressSample(overrides: Partial<RunProgressEvent> = {}): ProgressSample {
  const sample: Partial<RunProgressEvent> = makeProgressEvent(overrides);
  delete sample.host_name;
  return sample as ProgressSample;
}

export function makeHealth(overrides: Partial<Health> = {}): Health {
  return { status: "ok", version: "0.1.0", mode: "embedded", database: "ok", ...overrides };
}

/** What the app asks for on every signed-in page: the session (restored from its cookie) and health. */
export function shellRoutes({ role = "owner" }: { role?: Role } = {}) {
  return fakeRoutes({
    "GET /api/v1/auth/status": { body: { signed_in: true, session: makeSession({ role }) } },
    "GET /api/v1/auth/session": { body: makeSession({ role }) },
    "GET /api/v1/teams": { body: page([makeTeamMembership({ role })]) },
    "GET /api/v1/health": { body: makeHealth() },
  });
}

/** No session cookie: GET /auth/status answers "not signed in" (GET /auth/session would be a 401). */
export function signedOutRoutes() {
  return fakeRoutes({
    "GET /api/v1/auth/status": { body: { signed_in: false, session: null } },
    "GET /api/v1/auth/session": { status: 401, body: { code: "unauthorized", message: "authentication required" } },
    "GET /api/v1/health": { body: makeHealth() },
  });
}

/** How hosts join, as GET /api/v1/worker/setup answers in the embedded mode. */
export function makeWorkerSetup(overrides: Partial<WorkerSetup> = {}): WorkerSetup {
  return {
    mode: "embedded",
    accepts_remote_hosts: true,
    problems: [],
    remote_switch: "make up REMOTE=1",
    server_url: "http://192.0.2.10:8000",
    broker: "redis://192.0.2.10:6390/0",
    install_command: "apt-get install -y fio python3-venv && … pip install -r http://192.0.2.10:8000/api/v1/worker/requirements.txt",
    token_file: "/etc/storbench-token",
    start_command:
      'storbench-worker --server http://192.0.2.10:8000 --token-file /etc/storbench-token --name "$(hostname)" --allow <DIRECTORY>',
    directory_placeholder: "<DIRECTORY>",
    ...overrides,
  };
}

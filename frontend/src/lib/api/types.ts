// The storbench HTTP API's types (/api/v1), as its OpenAPI schema declares them: every type here is
// a name for a component or an operation of the generated ./schema.d.ts (`make api-types` writes it
// from the API itself, `make lint` fails when it is stale). Nothing here lists a field: a field the
// API does not send cannot be read, faked or sent.

import type { components, paths } from "./schema";

/** A component of the API's schema, by its name there: Schema<"RunOut">. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

type Method = "get" | "post" | "put" | "patch" | "delete";
type ApiPath = keyof paths & `/api/v1${string}`;

/** The operation behind METHOD path ("/api/v1/runs/{run_id}"). */
export type Operation<Path extends ApiPath, M extends Method> = NonNullable<paths[Path][M]>;

/** The query parameters of an operation. */
export type QueryOf<Path extends ApiPath, M extends Method = "get"> =
  Operation<Path, M> extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;

/** The JSON body an operation answers on success. */
export type ResponseOf<Path extends ApiPath, M extends Method = "get"> =
  Operation<Path, M> extends { responses: infer Responses }
    ? {
        [Status in keyof Responses & (200 | 201)]: Responses[Status] extends { content: { "application/json": infer Body } }
          ? Body
          : never;
      }[keyof Responses & (200 | 201)]
    : never;

/** The JSON body an operation takes. */
export type RequestOf<Path extends ApiPath, M extends Method> =
  Operation<Path, M> extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

// ---- errors ----------------------------------------------------------------------------------
// Every error is answered in one shape, {code, message, errors[]} (backend/storbench_api/errors.py).

export type ApiErrorBody = Schema<"ErrorOut">;
/** One offending field or fio option, and why. */
export type ApiErrorDetail = Schema<"ErrorItem">;

// ---- names the SPA uses for the schema's components ------------------------------------------

export type PageParams = Pick<QueryOf<"/api/v1/hosts">, "limit" | "offset">;

// Auth, teams, tokens
export type TokenResponse = Schema<"TokenOut">;
export type Role = Schema<"Role">;
export type Team = Schema<"TeamRef">;
export type Me = Schema<"MeOut">;
export type Session = Schema<"SessionOut">;
export type SessionStatus = Schema<"SessionStatusOut">;
export type LoginRequest = Schema<"LoginIn">;
export type PasswordChange = Schema<"PasswordChange">;
export type TeamMembership = Schema<"TeamOut">;
export type TeamCreate = Schema<"TeamCreate">;
export type Member = Schema<"MemberOut">;
export type MemberUpdate = Schema<"MemberUpdate">;
export type Invitation = Schema<"InvitationOut">;
export type InvitationCreate = Schema<"InvitationCreate">;
export type InvitationCreated = Schema<"InvitationCreated">;
export type InvitationAccept = Schema<"InvitationAccept">;
export type ApiToken = Schema<"ApiTokenOut">;
export type ApiTokenCreate = Schema<"TokenCreate">;
export type ApiTokenCreated = Schema<"ApiTokenCreated">;
export type EnrollmentToken = Schema<"EnrollmentTokenOut">;
export type EnrollmentTokenCreate = Schema<"EnrollmentTokenCreate">;
export type EnrollmentTokenCreated = Schema<"EnrollmentTokenCreated">;

// Audit log, health
export type AuditEvent = Schema<"AuditEventOut">;
export type AuditListParams = QueryOf<"/api/v1/audit">;
export type Health = Schema<"Health">;

// Hosts and targets
export type Host = Schema<"HostOut">;
export type HostStatus = Host["status"];
export type HostCreate = Schema<"HostCreate">;
export type HostCreated = Schema<"HostCreated">;
export type HostUpdate = Schema<"HostUpdate">;
export type HostCredential = Schema<"HostCredential">;
export type TargetKind = Schema<"TargetKind">;
export type Target = Schema<"TargetOut">;
export type TargetCreate = Schema<"TargetCreate">;
export type TargetUpdate = Schema<"TargetUpdate">;

// Storage classes and their specs
export type StorageClass = Schema<"StorageClassOut">;
export type ExpectedSpec = Schema<"ExpectedSpec">;
/** One figure a class's spec promises at a capacity (not a preset's published figure). */
export type SpecFigure = Schema<"ExpectedFigure">;
export type SpecCheck = Schema<"SpecCheck">;
export type Finding = Schema<"Finding">;

// fio jobs, presets, plans
/** One fio job as the API normalised it: sizes in bytes, times in seconds, unset options left out. */
export type FioJob = Schema<"FioJobOut">;
/** A job as sent to the API: fio options, values as fio reads them ("4k", "1MiB", "60s", 32, true). */
export type FioJobIn = Schema<"FioJobIn">;
export type FioValidateResponse = Schema<"JobsOut">;
export type Preset = Schema<"PresetOut">;
export type ExpectedFigure = Schema<"PresetFigure">;
export type Plan = Schema<"PlanOut">;
export type PlanCreate = Schema<"PlanCreate">;

// Runs and results
export type RunStatus = Schema<"RunStatus">;
export type Run = Schema<"RunOut">;
export type RunCreate = Schema<"RunCreate">;
export type RunListParams = QueryOf<"/api/v1/runs">;
export type RunTarget = Schema<"TargetRef">;
export type RunHost = Schema<"HostRef">;
export type Assignment = NonNullable<Run["assignments"]>[number];
export type RunAggregate = Schema<"Aggregate">;
export type AggregateDirection = Schema<"AggregateDirection">;
export type Result = Schema<"ResultOut">;
/** What a run or result page opens with: spec, previous run, regression state, worst finding. */
export type Verdict = Schema<"VerdictStrip">;
export type VerdictLine = Schema<"VerdictLine">;
export type HeadlineFigure = Schema<"HeadlineFigure">;
export type ResultListParams = QueryOf<"/api/v1/results">;
export type ResultImport = Schema<"ImportOut">;
/** Form fields of POST /results/import besides the file (multipart). */
export type ResultImportFields = Omit<Schema<"ImportForm">, "file">;
export type Direction = Schema<"DirectionOut">;
export type DirectionName = "read" | "write" | "trim";
export type Latency = Schema<"LatencyOut">;
export type HistogramBucket = Schema<"HistogramBucketOut">;
export type RateSpread = Schema<"RateSpreadOut">;
export type Cpu = Schema<"CpuOut">;
export type RunProgress = Schema<"RunProgress">;
export type HostProgress = Schema<"HostProgress">;
export type ProgressSample = Schema<"ProgressSampleOut">;

// GET /runs/{id}/events (text/event-stream): the data of its events.
/** Data of a `status` event ("gone": the run was deleted). */
export type RunStatusEvent = Schema<"RunStatusData">;
/** Data of a `progress` event: one host-second. */
export type RunProgressEvent = Schema<"RunProgressData">;

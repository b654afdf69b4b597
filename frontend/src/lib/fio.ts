// fio jobs for display: the options the plan form edits, jobs as the options fio would read, and
// what runs will refuse. fio's grammar (sizes like "4k" or "1MiB", times, booleans) is the API's alone
// (POST /fio/validate, /fio/validate-jobs): jobs from the API are normalised, sizes in bytes and times
// in seconds, and are shown as such (a number of bytes means the same to fio under any kb_base).

import type { FioJob, Run, TargetKind } from "./api/types";

/** fio's rw modes, as the API's job model lists them. */
export const RW_MODES = [
  "read",
  "write",
  "randread",
  "randwrite",
  "rw",
  "randrw",
  "trim",
  "randtrim",
  "trimwrite",
] as const satisfies readonly FioJob["rw"][];

export const COMMON_IOENGINES = [
  "libaio",
  "io_uring",
  "psync",
  "sync",
  "posixaio",
  "mmap",
  "windowsaio",
] as const satisfies readonly NonNullable<FioJob["ioengine"]>[];

/** Options edited by the plan form, in display order. */
export const COMMON_OPTIONS = [
  "rw",
  "bs",
  "iodepth",
  "numjobs",
  "size",
  "runtime",
  "time_based",
  "ramp_time",
  "direct",
  "ioengine",
  "rwmixread",
] as const;

const FLAG_OPTIONS = new Set(["time_based", "group_reporting"]);
/** Options the API normalises to seconds. */
const SECONDS_OPTIONS = new Set(["runtime", "ramp_time", "startdelay", "ss_dur", "ss_ramp"]);

/** Options the API normalises to bytes (the fio package's SIZE_FIELDS, with size and offset). */
const SIZE_OPTIONS = new Set(["bs", "size", "filesize", "io_size", "rate", "blockalign", "offset", "offset_increment"]);
const SIZE_SUFFIXES = ["", "k", "M", "G", "T", "P"];

/**
 * A byte count as a person writes it to fio: 4096 → "4k", 1073741824 → "1G"; the largest suffix
 * that divides it exactly, so that fio reads the same number back (k is kb_base: 1024 unless a job
 * says 1000).
 */
export function formatSize(bytes: number, kbBase: number = 1024): string {
  let value = bytes;
  let suffix = 0;
  while (value !== 0 && value % kbBase === 0 && suffix < SIZE_SUFFIXES.length - 1) {
    value /= kbBase;
    suffix += 1;
  }
  return `${value}${SIZE_SUFFIXES[suffix]}`;
}

/** One normalised option as fio would read it: "bs=4k", "direct=1", "time_based", "runtime=60s". */
export function formatOption(key: string, value: unknown, kbBase: number = 1024): string {
  if (typeof value === "number" && SIZE_OPTIONS.has(key)) return `${key}=${formatSize(value, kbBase)}`;
  if (typeof value === "boolean") {
    if (FLAG_OPTIONS.has(key)) return value ? key : `${key}=0`;
    return `${key}=${value ? 1 : 0}`;
  }
  if (typeof value === "number" && SECONDS_OPTIONS.has(key)) return `${key}=${value}s`;
  if (value === null || value === undefined) return key;
  if (typeof value === "object") return `${key}=${JSON.stringify(value)}`;
  return `${key}=${String(value)}`;
}

/** A job's options by name: a normalised job (FioJobOut), or the jobs a run recorded. */
export type JobOptions = FioJob | Run["jobs"][number];

/** A job's options (not its name) in a stable order: common ones first, then the rest by name. */
export function jobOptions(job: JobOptions): [string, unknown][] {
  // Options left unset may come as null (e.g. from the presets API): they are not options fio reads.
  const entries = Object.entries(job).filter(
    ([key, value]) => key !== "name" && value !== undefined && value !== null,
  );
  const rank = (key: string) => {
    const index = (COMMON_OPTIONS as readonly string[]).indexOf(key);
    return index === -1 ? COMMON_OPTIONS.length : index;
  };
  return entries.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The unit a job's k means: 1024 unless it sets kb_base=1000. */
export function kbBaseOf(job: JobOptions): number {
  return (job as { kb_base?: number | null }).kb_base === 1000 ? 1000 : 1024;
}

/** "rw=randread bs=4k iodepth=32 ..." */
export function describeJob(job: JobOptions): string {
  return jobOptions(job)
    .map(([key, value]) => formatOption(key, value, kbBaseOf(job)))
    .join(" ");
}

const WRITE_MODES = new Set<FioJob["rw"]>(["write", "randwrite", "rw", "randrw", "trimwrite"]);
const TRIM_MODES = new Set<FioJob["rw"]>(["trim", "randtrim", "trimwrite"]);

/**
 * Whether a normalised job writes or trims (so destroys data on a block device), as the server's
 * safety check decides it: a write/trim rw mode, or verify on anything but pure reads.
 */
export function jobWrites(job: FioJob): boolean {
  if (WRITE_MODES.has(job.rw) || TRIM_MODES.has(job.rw)) return true;
  return job.verify !== undefined && job.verify !== null && job.rw !== "read";
}

export interface JobRequirement {
  job: string;
  option: string;
  reason: string;
}

function unset(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/**
 * What runs will refuse in these jobs (the server's rules, said early): every job needs a
 * runtime; on a directory target, a size. Without a kind, the size rule is phrased for directories.
 * Only whether an option is given counts, so jobs as typed (not yet normalised) do too.
 */
export function runRequirements(jobs: readonly { readonly [option: string]: unknown }[], kind?: TargetKind): JobRequirement[] {
  const found: JobRequirement[] = [];
  for (const job of jobs) {
    const name = String(job.name ?? "");
    if (unset(job.runtime)) {
      found.push({ job: name, option: "runtime", reason: "not set: runs refuse jobs without a runtime" });
    }
    if (kind === "block_device") continue;
    const where = kind === "directory" ? "on this directory target" : "on directory targets";
    if (typeof job.size === "string" && job.size.trim().endsWith("%")) {
      found.push({ job: name, option: "size", reason: `a percentage needs a block device; give a size to run ${where}` });
    } else if (unset(job.size) && unset(job.filesize)) {
      found.push({ job: name, option: "size", reason: `not set: runs ${where} need a size (fio creates its files there)` });
    }
  }
  return found;
}

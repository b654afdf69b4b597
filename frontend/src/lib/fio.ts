// fio job helpers: the known options, size notation (fio's "4k" = 4096 bytes)
// and turning a preset's global section into self-contained jobs.

import type { FioJob, Preset, TargetKind } from "./api-types";

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
] as const;

export const COMMON_IOENGINES = ["libaio", "io_uring", "psync", "sync", "posixaio", "mmap", "windowsaio"] as const;

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

const SIZE_OPTIONS = new Set(["bs", "size", "filesize", "io_size", "offset", "blockalign", "ba"]);
const INT_OPTIONS = new Set(["iodepth", "numjobs", "rwmixread", "rwmixwrite", "nrfiles", "iodepth_batch"]);
const TIME_OPTIONS = new Set(["runtime", "ramp_time", "startdelay"]);
const BOOL_OPTIONS = new Set(["direct", "time_based", "group_reporting", "buffered", "randrepeat", "end_fsync"]);

const SIZE_SUFFIX: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
  pib: 1024 ** 5,
};

/** "4k" → 4096, "1GiB" → 1073741824, "512" → 512; null when not a size. */
export function parseFioSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!match) return null;
  const factor = SIZE_SUFFIX[(match[2] ?? "").toLowerCase()];
  if (factor === undefined) return null;
  const bytes = Number(match[1]) * factor;
  return Number.isFinite(bytes) ? Math.round(bytes) : null;
}

/** Bytes in fio notation: 4096 → "4k", 1048576 → "1m", 1000 → "1000". */
export function formatFioSize(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 4, "t"],
    [1024 ** 3, "g"],
    [1024 ** 2, "m"],
    [1024, "k"],
  ];
  for (const [factor, suffix] of units) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return String(bytes);
}

/** "60", "60s", "2m", "1h" → seconds; null when not a duration. */
export function parseFioSeconds(text: string): number | null {
  const match = /^\s*(\d+)\s*(s|m|h|ms|us)?\s*$/i.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  switch ((match[2] ?? "s").toLowerCase()) {
    case "m":
      return value * 60;
    case "h":
      return value * 3600;
    case "ms":
      return Math.ceil(value / 1000);
    case "us":
      return Math.ceil(value / 1_000_000);
    default:
      return value;
  }
}

/** A fio option's string value converted to the typed form jobs carry. */
export function coerceOption(key: string, raw: string): unknown {
  if (BOOL_OPTIONS.has(key)) return !["0", "false", "no", "off"].includes(raw.trim().toLowerCase());
  if (SIZE_OPTIONS.has(key)) {
    if (raw.trim().endsWith("%")) return raw.trim();
    return parseFioSize(raw) ?? raw;
  }
  if (INT_OPTIONS.has(key)) {
    const value = Number(raw);
    return Number.isInteger(value) ? value : raw;
  }
  if (TIME_OPTIONS.has(key)) return parseFioSeconds(raw) ?? raw;
  return raw;
}

/** A preset's jobs with its [global] section folded in (job options win, as in fio). */
export function presetJobs(preset: Preset): FioJob[] {
  const globals: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(preset.global_options)) globals[key] = coerceOption(key, raw);
  return preset.jobs.map((job) => ({ ...globals, ...job }) as FioJob);
}

/** One option as fio would read it: "bs=4k", "direct=1", "time_based". */
export function formatOption(key: string, value: unknown): string {
  if (typeof value === "boolean") {
    if (key === "time_based" || key === "group_reporting") return value ? key : `${key}=0`;
    return `${key}=${value ? 1 : 0}`;
  }
  if (typeof value === "number" && SIZE_OPTIONS.has(key)) return `${key}=${formatFioSize(value)}`;
  if (typeof value === "number" && TIME_OPTIONS.has(key)) return `${key}=${value}s`;
  if (value === null || value === undefined) return key;
  if (typeof value === "object") return `${key}=${JSON.stringify(value)}`;
  return `${key}=${String(value)}`;
}

/** A job's options (not its name) in a stable order: common ones first, then the rest by name. */
export function jobOptions(job: FioJob): [string, unknown][] {
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

/** "rw=randread bs=4k iodepth=32 ..." */
export function describeJob(job: FioJob): string {
  return jobOptions(job)
    .map(([key, value]) => formatOption(key, value))
    .join(" ");
}

const WRITE_MODES = new Set(["write", "randwrite", "rw", "readwrite", "randrw", "trimwrite"]);
const TRIM_MODES = new Set(["trim", "randtrim", "trimwrite"]);

function isOff(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === 0 || value === "0" || value === "";
}

/**
 * Whether a job writes or trims (so destroys data on a block device), as the server's safety
 * check decides it: a write/trim rw mode, trim_percentage, or verify on anything but pure reads.
 */
export function jobWrites(job: FioJob): boolean {
  const rw = String(job.rw ?? "read").trim().toLowerCase();
  if (WRITE_MODES.has(rw) || TRIM_MODES.has(rw)) return true;
  if (parseFloat(String(job.trim_percentage ?? 0)) > 0) return true;
  return !isOff(job.verify) && rw !== "read";
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
 */
export function runRequirements(jobs: FioJob[], kind?: TargetKind): JobRequirement[] {
  const found: JobRequirement[] = [];
  for (const job of jobs) {
    if (unset(job.runtime)) {
      found.push({ job: job.name, option: "runtime", reason: "not set: runs refuse jobs without a runtime" });
    }
    if (kind === "block_device") continue;
    const where = kind === "directory" ? "on this directory target" : "on directory targets";
    if (typeof job.size === "string" && job.size.trim().endsWith("%")) {
      found.push({ job: job.name, option: "size", reason: `a percentage needs a block device; give a size to run ${where}` });
    } else if (unset(job.size) && unset(job.filesize)) {
      found.push({ job: job.name, option: "size", reason: `not set: runs ${where} need a size (fio creates its files there)` });
    }
  }
  return found;
}

// The plan form edits jobs as text (so "4k" can be typed), and converts
// them back to contract-shaped FioJobs (bytes, seconds, booleans) on save.

import type { FioJob } from "../../../lib/api-types";
import { formatFioSize, parseFioSeconds, parseFioSize } from "../../../lib/fio";

export interface JobDraft {
  key: string;
  name: string;
  rw: string;
  bs: string;
  iodepth: string;
  numjobs: string;
  size: string;
  runtime: string;
  time_based: boolean;
  direct: boolean;
  ioengine: string;
  rwmixread: string;
  /** Options the form does not edit, kept as they came. */
  extra: Record<string, unknown>;
}

const EDITED = new Set(["name", "rw", "bs", "iodepth", "numjobs", "size", "runtime", "time_based", "direct", "ioengine", "rwmixread"]);

let nextKey = 0;
function newKey(): string {
  nextKey += 1;
  return `job-${nextKey}`;
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

export function draftFromJob(job: FioJob): JobDraft {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(job)) if (!EDITED.has(key)) extra[key] = value;
  return {
    key: newKey(),
    name: job.name,
    rw: job.rw,
    bs: typeof job.bs === "number" ? formatFioSize(job.bs) : text(job.bs),
    iodepth: text(job.iodepth),
    numjobs: text(job.numjobs),
    size: typeof job.size === "number" ? formatFioSize(job.size) : text(job.size),
    runtime: text(job.runtime),
    time_based: job.time_based === true,
    direct: job.direct === true,
    ioengine: text(job.ioengine),
    rwmixread: text(job.rwmixread),
    extra,
  };
}

export function blankDraft(index: number): JobDraft {
  return draftFromJob({
    name: `job${index + 1}`,
    rw: "randread",
    bs: 4096,
    iodepth: 32,
    numjobs: 1,
    size: 1024 ** 3,
    runtime: 60,
    time_based: true,
    direct: true,
    ioengine: "libaio",
  });
}

export interface DraftProblem {
  job: string;
  option: string;
  reason: string;
}

function positiveInt(value: string): number | null {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : null;
}

/** The job a draft describes, or the reasons it is not a valid job yet. */
export function jobFromDraft(draft: JobDraft): { job: FioJob; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  const problem = (option: string, reason: string) => problems.push({ job: draft.name || "(unnamed)", option, reason });
  const job: FioJob = { ...draft.extra, name: draft.name.trim(), rw: draft.rw };
  if (!job.name) problem("name", "a job needs a name");
  else if (/[\s[\]]/.test(job.name)) problem("name", "no spaces or brackets");

  if (draft.bs.trim()) {
    const bs = parseFioSize(draft.bs);
    if (bs === null || bs <= 0) problem("bs", `"${draft.bs}" is not a block size like 4k or 1m`);
    else job.bs = bs;
  }
  if (draft.size.trim()) {
    const raw = draft.size.trim();
    if (/^\d+(\.\d+)?%$/.test(raw)) job.size = raw;
    else {
      const size = parseFioSize(raw);
      if (size === null || size <= 0) problem("size", `"${raw}" is not a size like 10g or 100%`);
      else job.size = size;
    }
  }
  for (const option of ["iodepth", "numjobs", "rwmixread"] as const) {
    const raw = draft[option].trim();
    if (!raw) continue;
    const value = positiveInt(raw);
    if (value === null) problem(option, "must be a positive whole number");
    else job[option] = value;
  }
  if (draft.runtime.trim()) {
    const runtime = parseFioSeconds(draft.runtime);
    if (runtime === null || runtime <= 0) problem("runtime", "must be seconds, e.g. 60");
    else job.runtime = runtime;
  }
  if (draft.time_based) job.time_based = true;
  if (draft.direct) job.direct = true;
  if (draft.ioengine.trim()) job.ioengine = draft.ioengine.trim();
  return { job, problems };
}

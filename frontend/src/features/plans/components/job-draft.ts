// The plan form edits jobs as text (so "4k" or "1MiB" can be typed) and sends the text as typed:
// only the API reads fio's units (POST /fio/validate-jobs while typing, POST /plans on save), so the
// form shows and saves exactly what fio will read.

import type { FioJob, FioJobIn } from "../../../lib/api/types";

/** Options typed as fio text ("4k", "10g", "100%"). */
const TEXT_OPTIONS = ["bs", "size", "ioengine"] as const;
/** Options typed in number inputs. */
const NUMBER_OPTIONS = ["iodepth", "numjobs", "rwmixread", "runtime"] as const;
export type EditedOption = (typeof TEXT_OPTIONS)[number] | (typeof NUMBER_OPTIONS)[number];
const EDITED = new Set<string>(["name", "rw", "time_based", "direct", ...TEXT_OPTIONS, ...NUMBER_OPTIONS]);

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
  extra: FioJobIn;
  /** The values the draft was made from: a field left as it was goes back as it came. */
  loaded: Partial<Record<EditedOption, FioJobIn[string]>>;
}

let nextKey = 0;
function newKey(): string {
  nextKey += 1;
  return `job-${nextKey}`;
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

/** A draft of a job the API returned (normalised: sizes in bytes, times in seconds). */
export function draftFromJob(job: FioJob): JobDraft {
  const extra: FioJobIn = {};
  const loaded: JobDraft["loaded"] = {};
  for (const [key, value] of Object.entries(job)) {
    // Options beyond the typed ones are fio text (the API's schema leaves them open).
    if (!EDITED.has(key)) extra[key] = value as FioJobIn[string];
    else if (key !== "name" && key !== "rw") loaded[key as EditedOption] = value as JobDraft["loaded"][EditedOption];
  }
  return {
    key: newKey(),
    name: job.name,
    rw: job.rw ?? "read", // fio's default
    bs: text(job.bs),
    iodepth: text(job.iodepth),
    numjobs: text(job.numjobs),
    size: text(job.size),
    runtime: text(job.runtime),
    time_based: job.time_based === true,
    direct: job.direct === true,
    ioengine: text(job.ioengine),
    rwmixread: text(job.rwmixread),
    extra,
    loaded,
  };
}

/** A new job as a user would type it; the API says what fio makes of it. */
export function blankDraft(index: number): JobDraft {
  return {
    key: newKey(),
    name: `job${index + 1}`,
    rw: "randread",
    bs: "4k",
    iodepth: "32",
    numjobs: "1",
    size: "1g",
    runtime: "60",
    time_based: true,
    direct: true,
    ioengine: "libaio",
    rwmixread: "",
    extra: {},
    loaded: {},
  };
}

/**
 * The job a draft describes, as it goes to the API: fields left as loaded keep their value, whole
 * numbers typed in number inputs are numbers, and everything else is the text typed (fio's units are
 * the API's to read).
 */
export function jobFromDraft(draft: JobDraft): FioJobIn {
  const job: FioJobIn = { ...draft.extra, name: draft.name.trim(), rw: draft.rw };
  for (const option of [...TEXT_OPTIONS, ...NUMBER_OPTIONS]) {
    const typed = draft[option].trim();
    if (!typed) continue;
    const loaded = draft.loaded[option];
    if (loaded !== undefined && typed === text(loaded)) job[option] = loaded;
    else if ((NUMBER_OPTIONS as readonly string[]).includes(option) && /^\d+$/.test(typed)) job[option] = Number(typed);
    else job[option] = typed;
  }
  if (draft.time_based) job.time_based = true;
  if (draft.direct) job.direct = true;
  return job;
}

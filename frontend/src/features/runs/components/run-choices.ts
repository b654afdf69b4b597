// What the start-run form's choices make: the plan or preset among those the target's platform is
// offered, the hosts that join, whether the run destroys data, and the run as it would be sent.
// Pure: the form keeps the choices, this reads them.

import type { Host, Plan, Preset, RunCreate, Target } from "../../../lib/api/types";
import { jobWrites } from "../../../lib/fio";

export type TargetOption = Pick<Target, "id" | "name" | "host_id" | "host_name" | "path" | "kind" | "destructive">;
export type HostOption = Pick<Host, "id" | "name" | "status" | "labels"> & { facts?: Host["facts"] };
export type Platform = "linux" | "windows" | "other";

export const PLATFORM_NAMES: Record<Platform, string> = { linux: "Linux", windows: "Windows", other: "another system" };

/** linux or windows from the OS a host reported (undefined before its first heartbeat). */
export function hostPlatform(host: HostOption | undefined): Platform | undefined {
  const os = (host?.facts?.os ?? "").toLowerCase();
  if (!os) return undefined;
  if (os.startsWith("windows") || os.includes("cygwin") || os.includes("mingw")) return "windows";
  return os.startsWith("linux") ? "linux" : "other";
}

/** What the form offers. */
export interface RunOptions {
  targets: TargetOption[];
  /** The team's hosts: a run may also use others that mount the target's path. */
  hosts: HostOption[];
  plans: Plan[];
  presets: Preset[];
}

/** What the starter chose, as typed. */
export interface RunChoices {
  targetId: string;
  /** "plan:<id>" or "preset:<id>", "" for none. */
  planChoice: string;
  extraHostIds: number[];
  hostLabel: string;
  /** The answer on shared files, for the plan choice it was given under. */
  sharedFilesChoice: { plan: string; shared: boolean } | null;
  /** The id of the target whose data loss was acknowledged: switching targets asks again. */
  confirmedFor: string | null;
}

type Job = Plan["jobs"][number];

/** The plan or preset chosen; presets only for the platform the target's host runs (when it has said). */
function chooseSource({ planChoice }: RunChoices, { plans, presets, hosts }: RunOptions, target: TargetOption | undefined) {
  const [kind, id] = planChoice.split(":", 2) as [string, string | undefined];
  const plan = kind === "plan" ? plans.find((candidate) => String(candidate.id) === id) : undefined;
  const platform = hostPlatform(hosts.find((host) => host.id === target?.host_id));
  const offeredPresets = platform ? presets.filter((preset) => (preset.platform ?? "linux") === platform) : presets;
  const preset = kind === "preset" ? offeredPresets.find((candidate) => candidate.id === id) : undefined;
  // A preset's jobs come complete (its global options folded in by the API).
  const jobs: Job[] = plan?.jobs ?? preset?.jobs ?? [];
  return { plan, preset, platform, offeredPresets, hiddenPresets: presets.length - offeredPresets.length, jobs };
}

/** The hosts a run adds: reachable ones other than the target's own (which always runs), by name or label. */
function chooseHosts({ extraHostIds, hostLabel }: RunChoices, { hosts }: RunOptions, target: TargetOption | undefined) {
  const otherHosts = target ? hosts.filter((host) => host.id !== target.host_id) : [];
  const selectableHosts = otherHosts.filter((host) => host.status !== "offline");
  const hostIds = extraHostIds.filter((id) => selectableHosts.some((host) => host.id === id));
  const label = otherHosts.length ? hostLabel.trim() : "";
  return { otherHosts, selectableHosts, hostIds, label };
}

/** Everything the form shows, from the choices. */
function resolveChoices(choices: RunChoices, options: RunOptions) {
  const target = options.targets.find((candidate) => String(candidate.id) === choices.targetId);
  const source = chooseSource(choices, options, target);
  const hosts = chooseHosts(choices, options, target);
  const writingJobs = source.jobs.filter(jobWrites);
  const needsConfirm = target?.kind === "block_device" && writingJobs.length > 0;
  const confirmed = needsConfirm && choices.confirmedFor === choices.targetId;
  // Only hosts sharing a directory have files to share; a block device is one device for all.
  const asksSharedFiles = target?.kind === "directory" && (hosts.hostIds.length > 0 || hosts.label !== "");
  const { sharedFilesChoice, planChoice } = choices;
  const sharedFiles =
    sharedFilesChoice?.plan === planChoice ? sharedFilesChoice.shared : (source.plan?.shared_files ?? false);
  return { target, ...source, ...hosts, writingJobs, needsConfirm, confirmed, asksSharedFiles, sharedFiles };
}

type Resolved = ReturnType<typeof resolveChoices>;
export type ResolvedRun = Resolved & { body: RunCreate | null };

/** Everything the form shows and sends, from the choices. */
export function resolveRun(choices: RunChoices, options: RunOptions): ResolvedRun {
  const resolved = resolveChoices(choices, options);
  return { ...resolved, body: runBody(resolved) };
}

/** The run as it would be started now (null until a target and a plan or preset are chosen). */
function runBody(run: Resolved): RunCreate | null {
  // A preset goes by id, not as inline jobs: the server resolves it and names the run after it.
  const source = run.plan ? { plan_id: run.plan.id } : run.preset ? { preset_id: run.preset.id } : null;
  if (!source || !run.target) return null;
  const body: RunCreate = { target_id: run.target.id, ...source };
  if (run.needsConfirm) body.confirm_destructive = run.confirmed;
  if (run.hostIds.length) body.host_ids = run.hostIds;
  if (run.label) body.host_label = run.label;
  if (run.asksSharedFiles) body.shared_files = run.sharedFiles;
  return body;
}

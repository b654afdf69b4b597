import { useState } from "react";
import { sharedFilesLabel } from "../../../components/ui/shared-files-field";
import type { Plan } from "../../../lib/api/types";
import { describeJob } from "../../../lib/fio";
import { formatDateTime } from "../../../lib/format";
import { usePlanVersions } from "../api/list-plan-versions";
import { PlanRowActions, type PlanTarget } from "./plan-row-actions";

interface PlansTableProps {
  plans: Plan[];
  /** Targets to run a plan on; with them (and write access) each plan gets its actions. */
  targets?: PlanTarget[];
  canEdit?: boolean;
}

export function PlansTable({ plans, targets = [], canEdit = false }: PlansTableProps) {
  if (plans.length === 0) return <p className="muted">No saved plans yet.</p>;
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="sr-only">Saved plans</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Jobs</th>
            <th scope="col">Preset</th>
            <th scope="col">Multi-host files</th>
            <th scope="col">Version</th>
            <th scope="col">Created</th>
            {canEdit ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {plans.map((plan) => (
            <tr key={plan.id}>
              <th scope="row">
                {plan.name}
                {plan.description ? <div className="small muted">{plan.description}</div> : null}
              </th>
              <td>
                <ul className="plain-list small mono">
                  {plan.jobs.map((job, index) => (
                    <li key={index}>
                      [{job.name}] {describeJob(job)}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="small">{plan.preset_id ?? "—"}</td>
              <td className="small">{sharedFilesLabel(plan.shared_files ?? false)}</td>
              <td className="small">
                <PlanVersions plan={plan} />
              </td>
              <td className="nowrap">{formatDateTime(plan.created_at)}</td>
              {canEdit ? (
                <td>
                  <PlanRowActions plan={plan} targets={targets} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "v3", and on demand every version with its jobs and how many runs ran it. */
function PlanVersions({ plan }: { plan: Plan }) {
  const [open, setOpen] = useState(false);
  const version = plan.version ?? 1;
  const versions = usePlanVersions(plan.id, open && version > 1);
  if (version === 1) return <>v1</>;
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>v{version}</summary>
      {versions.error ? <p className="field-error">Could not load the versions.</p> : null}
      <ul className="plain-list">
        {(versions.data?.items ?? []).map((item) => (
          <li key={item.version}>
            <strong>v{item.version}</strong> · {formatDateTime(item.created_at)} · {item.runs}{" "}
            {item.runs === 1 ? "run" : "runs"}
            <ul className="plain-list mono">
              {item.jobs.map((job, index) => (
                <li key={index}>
                  [{job.name}] {describeJob(job)}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}

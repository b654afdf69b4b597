import { sharedFilesLabel } from "../../../components/ui/shared-files-field";
import type { Plan } from "../../../lib/api/types";
import { describeJob } from "../../../lib/fio";
import { formatDateTime } from "../../../lib/format";

export function PlansTable({ plans }: { plans: Plan[] }) {
  if (plans.length === 0) return <p className="muted">No saved plans yet.</p>;
  return (
    <table className="table">
      <caption className="sr-only">Saved plans</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Jobs</th>
          <th scope="col">Preset</th>
          <th scope="col">Multi-host files</th>
          <th scope="col">Created</th>
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
            <td className="nowrap">{formatDateTime(plan.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

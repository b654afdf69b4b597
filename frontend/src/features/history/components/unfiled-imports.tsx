import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { Dialog } from "../../../components/ui/dialog";
import type { Target } from "../../../lib/api/types";
import { useFileResults } from "../api/file-results";
import type { UnfiledGroup } from "../api/list-unfiled";

interface UnfiledImportsProps {
  groups: UnfiledGroup[];
  targets: Target[];
  /** Members and owners may file imports under a target. */
  canFile: boolean;
}

function day(stamp: string): string {
  return stamp.slice(0, 10);
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/** Imports uploaded without a target, by host name and job, until they are filed under one. */
export function UnfiledImports({ groups, targets, canFile }: UnfiledImportsProps) {
  const [filing, setFiling] = useState<UnfiledGroup | null>(null);
  if (groups.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="unfiled-heading">
      <h2 id="unfiled-heading">Imports without a target</h2>
      <p className="muted small">
        Filed under a target, imports are judged by its storage class, charted in its trends and watched for regressions.
      </p>
      <div className="table-scroll">
        <table className="table">
          <caption className="sr-only">Imports without a target, by host name and job</caption>
          <thead>
            <tr>
              <th scope="col">Host name</th>
              <th scope="col">Job</th>
              <th scope="col" className="num">
                Imports
              </th>
              <th scope="col">Measured</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={`${group.host_name}\u0000${group.job_name}`}>
                <th scope="row">{group.host_name}</th>
                <td>{group.job_name}</td>
                <td className="num">
                  {group.results.toLocaleString("en-US")}
                  {group.fingerprints > 1 ? <div className="muted small">measured {group.fingerprints} ways</div> : null}
                </td>
                <td className="small">
                  {day(group.first_measured_at) === day(group.last_measured_at)
                    ? day(group.last_measured_at)
                    : `${day(group.first_measured_at)} – ${day(group.last_measured_at)}`}
                </td>
                <td className="small">
                  <Link to={`/results/${group.newest_result_id}`}>newest</Link>
                  {" · "}
                  <Link
                    to={`/results?${new URLSearchParams({ imported: "true", host_name: group.host_name, job_name: group.job_name })}`}
                  >
                    all
                  </Link>
                  {canFile ? (
                    <>
                      {" · "}
                      <button type="button" onClick={() => setFiling(group)}>
                        File under a target…
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {filing ? (
        <FileDialog
          group={filing}
          hostTotal={groups.filter((g) => g.host_name === filing.host_name).reduce((sum, g) => sum + g.results, 0)}
          targets={targets}
          onClose={() => setFiling(null)}
        />
      ) : null}
    </section>
  );
}

interface FileDialogProps {
  group: UnfiledGroup;
  hostTotal: number;
  targets: Target[];
  onClose: () => void;
}

function FileDialog({ group, hostTotal, targets, onClose }: FileDialogProps) {
  const sameHost = targets.find((t) => t.host_name === group.host_name);
  const [targetId, setTargetId] = useState(sameHost ? String(sameHost.id) : "");
  const [everyJob, setEveryJob] = useState(false);
  const mutation = useFileResults();
  const chosen = targets.find((t) => String(t.id) === targetId);
  const count = everyJob ? hostTotal : group.results;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    mutation.mutate({
      target_id: chosen.id,
      host_name: group.host_name,
      ...(everyJob ? {} : { job_name: group.job_name }),
    });
  };

  return (
    <Dialog title={`File imports of ${group.host_name}`} onClose={onClose}>
      {mutation.isSuccess ? (
        <>
          <p role="status" className="alert alert-ok">
            Filed {plural(mutation.data.result_ids.length, "import")} under {mutation.data.target_name}.
          </p>
          {(mutation.data.notices ?? []).map((notice) => (
            <p key={notice} className="alert alert-warn">
              {notice}
            </p>
          ))}
          <div className="button-row">
            <Link to={`/history?target_id=${mutation.data.target_id}&job=${encodeURIComponent(group.job_name)}`}>
              Open its trend
            </Link>{" "}
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form className="form" onSubmit={submit}>
          <ApiErrorAlert error={mutation.error} />
          <label>
            Target
            <select value={targetId} onChange={(event) => setTargetId(event.target.value)} required>
              <option value="">Choose a target</option>
              {targets.map((target) => (
                <option key={target.id} value={target.id}>
                  {target.name} ({target.host_name})
                </option>
              ))}
            </select>
          </label>
          <label>
            <input type="checkbox" checked={everyJob} onChange={(event) => setEveryJob(event.target.checked)} />
            Every job of {group.host_name} ({plural(hostTotal, "import")}), not only {group.job_name}
          </label>
          {chosen && chosen.host_name !== group.host_name ? (
            <p className="alert alert-warn small">
              {chosen.name} is on host {chosen.host_name}, these were measured on {group.host_name}: they will count in its
              history and spec checks as if measured there, and keep their own host name.
            </p>
          ) : null}
          <div className="button-row">
            <button type="submit" className="primary" disabled={!chosen || mutation.isPending}>
              File {plural(count, "import")}
            </button>{" "}
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

import { StatusBadge } from "../../../components/ui/status-badge";
import type { Host } from "../../../lib/api/types";
import { formatBytes, formatDateTime, formatRelativeTime } from "../../../lib/format";
import { useNow } from "../../../lib/use-now";
import { HostActions } from "./host-actions";
import { HostCredentials } from "./host-credentials";
import { HostLabels } from "./host-labels";

/** What the worker reported about its machine, as a person reads it: "2 CPUs · 23.5 GiB · x86_64". */
function machineSummary(facts: Host["facts"]): string {
  const parts = [
    facts.cpu_count === null || facts.cpu_count === undefined
      ? null
      : `${facts.cpu_count} ${facts.cpu_count === 1 ? "CPU" : "CPUs"}`,
    facts.memory_bytes === null || facts.memory_bytes === undefined ? null : formatBytes(facts.memory_bytes),
    facts.arch,
  ];
  return parts.filter((part) => part !== undefined && part !== null && part !== "").join(" · ");
}

/** The directories and devices the host's worker lends to benchmarks (its --allow). */
function allowedPaths(facts: Host["facts"]): string {
  const roots = facts.allowed_roots ?? [];
  return roots.length > 0 ? roots.join(", ") : "—";
}

/** The team's hosts; canEdit: the user may change their labels (members and owners); canManage: owners. */
export function HostsTable({
  hosts,
  canEdit = false,
  canManage = false,
}: {
  hosts: Host[];
  canEdit?: boolean;
  canManage?: boolean;
}) {
  const now = useNow(15_000);
  if (hosts.length === 0) return <p className="muted">No hosts yet. Add one with the commands below.</p>;
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="sr-only">Hosts</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Labels</th>
            <th scope="col">Last seen</th>
            <th scope="col">fio version</th>
            <th scope="col">Allowed paths</th>
            <th scope="col">Machine</th>
            {canEdit ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {hosts.map((host) => (
            <tr key={host.id}>
              <th scope="row">{host.name}</th>
              <td>
                <StatusBadge status={host.status} />
              </td>
              <td>
                <HostLabels host={host} canEdit={canEdit} />
              </td>
              <td>
                {host.last_seen_at ? (
                  <time dateTime={host.last_seen_at} title={formatDateTime(host.last_seen_at)}>
                    {formatRelativeTime(host.last_seen_at, now)}
                  </time>
                ) : (
                  "never"
                )}
              </td>
              <td>{host.fio_version ?? "—"}</td>
              <td className="mono small">{allowedPaths(host.facts)}</td>
              <td className="host-facts small">
                {machineSummary(host.facts) || "—"}
                {host.facts.kernel ? <div className="muted">kernel {host.facts.kernel}</div> : null}
              </td>
              {canEdit ? (
                <td className="host-actions">
                  <HostActions host={host} canManage={canManage} />
                  {/* Rotate, revoke, replace: their questions and one-time tokens open in a dialog. */}
                  {canManage ? <HostCredentials host={host} /> : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

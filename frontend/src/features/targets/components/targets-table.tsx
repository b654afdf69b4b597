import type { Target } from "../../../lib/api/types";
import { DestructiveWritesControl } from "./destructive-writes-control";
import { TargetSpecEditor } from "./target-spec-editor";

const DIRECTORY_BADGES = {
  exists: ["badge-ok", "exists"],
  missing: ["badge-bad", "missing"],
  not_a_directory: ["badge-bad", "not a directory"],
  not_writable: ["badge-bad", "not writable"],
  not_checked: ["badge-warn", "not yet checked"],
} as const;

/** Whether the target's directory exists on its host, as the host's worker last reported it. */
function DirectoryState({ target }: { target: Target }) {
  const directory = target.directory;
  if (!directory) return null;
  const [badge, label] = DIRECTORY_BADGES[directory.state];
  return (
    <div className="small">
      <span className={`badge ${badge}`} title={directory.message}>
        {label}
      </span>
      {directory.state === "exists" || directory.state === "not_checked" ? null : <p className="muted">{directory.message}</p>}
    </div>
  );
}

export const KIND_LABELS = { directory: "Directory", block_device: "Block device" } as const;

interface TargetsTableProps {
  targets: Target[];
  /** Team owners may allow or refuse writes to block devices. */
  canManageDestructive?: boolean;
  /** Members and owners may change a target's storage class and capacity. */
  canEdit?: boolean;
}

export function TargetsTable({ targets, canManageDestructive = false, canEdit = false }: TargetsTableProps) {
  if (targets.length === 0) return <p className="muted">No targets yet.</p>;
  const anyDevice = targets.some((target) => target.kind === "block_device");
  return (
    <table className="table">
      <caption className="sr-only">Targets</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Host</th>
          <th scope="col">Path</th>
          <th scope="col">Kind</th>
          <th scope="col">Storage class</th>
          <th scope="col" className="num">
            Capacity
          </th>
          <th scope="col">Description</th>
          {anyDevice ? <th scope="col">Device writes</th> : null}
        </tr>
      </thead>
      <tbody>
        {targets.map((target) => (
          <tr key={target.id}>
            <th scope="row">{target.name}</th>
            <td>{target.host_name}</td>
            <td>
              <span className="mono">{target.path}</span>
              <DirectoryState target={target} />
            </td>
            <td>
              {KIND_LABELS[target.kind] ?? target.kind}
              {target.destructive ? (
                <>
                  {" "}
                  <span className="badge badge-bad" title="Write runs may destroy this device's data">
                    destructive
                  </span>
                </>
              ) : null}
            </td>
            <td>
              {target.storage_class ?? "—"}
              {canEdit ? <TargetSpecEditor target={target} /> : null}
            </td>
            <td className="num">{target.capacity_gib === null ? "—" : `${target.capacity_gib.toLocaleString("en-US")} GiB`}</td>
            <td className="small">{target.description ?? ""}</td>
            {anyDevice ? (
              <td className="small">
                {target.kind !== "block_device" ? null : canManageDestructive ? (
                  <DestructiveWritesControl target={target} />
                ) : (
                  <span className={target.destructive ? undefined : "muted"}>
                    {target.destructive ? "allowed" : "reads only (a team owner can allow writes)"}
                  </span>
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

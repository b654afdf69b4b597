import type { Target } from "../../../lib/api-types";

export const KIND_LABELS = { directory: "Directory", block_device: "Block device" } as const;

export function TargetsTable({ targets }: { targets: Target[] }) {
  if (targets.length === 0) return <p className="muted">No targets yet.</p>;
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
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {targets.map((target) => (
          <tr key={target.id}>
            <th scope="row">{target.name}</th>
            <td>{target.host_name}</td>
            <td className="mono">{target.path}</td>
            <td>{KIND_LABELS[target.kind] ?? target.kind}</td>
            <td>{target.storage_class ?? "—"}</td>
            <td className="small">{target.description ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

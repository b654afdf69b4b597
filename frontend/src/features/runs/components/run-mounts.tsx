import type { Assignment } from "../../../lib/api/types";
import { formatBytes } from "../../../lib/format";

/** The file system each host's target path was on when the run started, with its mount options. */
export function RunMounts({ assignments }: { assignments: Assignment[] }) {
  const mounted = assignments.filter((a) => a.mount);
  if (mounted.length === 0) return null;
  return (
    <section aria-labelledby="run-mounts-heading">
      <h2 id="run-mounts-heading">Mount options</h2>
      <p className="small muted">As each host reported them when the run started.</p>
      <div className="table-scroll">
        <table className="table">
          <caption className="sr-only">Mounts of the target path</caption>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">File system</th>
              <th scope="col">Mounted</th>
              <th scope="col">NFS version</th>
              <th scope="col" className="num">
                nconnect
              </th>
              <th scope="col" className="num">
                rsize
              </th>
              <th scope="col" className="num">
                wsize
              </th>
              <th scope="col">Options</th>
            </tr>
          </thead>
          <tbody>
            {mounted.map((assignment) => {
              const mount = assignment.mount!;
              return (
                <tr key={assignment.host.id}>
                  <th scope="row">{assignment.host.name}</th>
                  <td className="mono">{mount.fstype}</td>
                  <td className="mono small">
                    {mount.source} on {mount.mountpoint}
                  </td>
                  <td>{mount.nfs_version ?? "—"}</td>
                  <td className="num">{mount.nconnect ?? "—"}</td>
                  <td className="num">{mount.rsize != null ? formatBytes(mount.rsize) : "—"}</td>
                  <td className="num">{mount.wsize != null ? formatBytes(mount.wsize) : "—"}</td>
                  <td className="mono small wrap-anywhere">{mount.options}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

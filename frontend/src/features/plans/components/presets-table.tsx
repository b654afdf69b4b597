import type { Preset } from "../../../lib/api/types";
import { describeJob } from "../../../lib/fio";
import { formatExpected } from "./expected-figures";
import { groupPresets } from "./group-presets";

/** "14,000 IOPS; 600 MiB/s (premium share)": each figure as published, with its note. */
function expectedSummary(preset: Preset): string {
  return (preset.expected ?? [])
    .map((figure) => (figure.note ? `${formatExpected(figure)} (${figure.note})` : formatExpected(figure)))
    .join("; ");
}

/** The preset catalogue in one table, a row group per source. */
export function PresetsTable({ presets }: { presets: Preset[] }) {
  if (presets.length === 0) return <p className="muted">The server offers no presets.</p>;
  return (
    <table className="table">
      <caption className="sr-only">Presets</caption>
      <thead>
        <tr>
          <th scope="col">Preset</th>
          <th scope="col">Measures</th>
          <th scope="col">Platform</th>
          <th scope="col">Jobs</th>
          <th scope="col">Expected</th>
        </tr>
      </thead>
      {groupPresets(presets).map(([source, group]) => (
        <tbody key={source}>
          <tr>
            <th scope="colgroup" colSpan={5}>
              {source}
            </th>
          </tr>
          {group.map((preset) => (
            <tr key={preset.id}>
              <th scope="row">
                {preset.name}
                <div className="small muted">{preset.description}</div>
              </th>
              <td>{preset.measures}</td>
              <td>{preset.platform}</td>
              <td>
                <ul className="plain-list small mono">
                  {preset.jobs.map((job, index) => (
                    <li key={index}>
                      [{job.name}] {describeJob(job)}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="small">{expectedSummary(preset) || "—"}</td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}

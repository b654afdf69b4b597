import { formatOption, jobOptions, kbBaseOf, type JobOptions } from "../../lib/fio";

/** fio jobs as the options fio would read: one row per job, "key=value" per option. */
export function FioJobList({ jobs, caption = "Jobs" }: { jobs: readonly JobOptions[]; caption?: string }) {
  if (jobs.length === 0) return <p className="muted">No jobs.</p>;
  return (
    <table className="table job-table">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Options</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job, index) => (
          <tr key={`${String(job.name)}-${index}`}>
            <th scope="row">
              <code>[{String(job.name)}]</code>
            </th>
            <td>
              <ul className="option-list">
                {jobOptions(job).map(([key, value]) => (
                  <li key={key}>
                    <code>{formatOption(key, value, kbBaseOf(job))}</code>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

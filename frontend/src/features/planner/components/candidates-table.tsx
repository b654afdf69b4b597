import type { Candidate } from "../api/plan-capacity";

function number(value: number | null | undefined, digits = 0): string {
  return value == null ? "–" : value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function measured(candidate: Candidate): string {
  const ratio = candidate.measured_ratio;
  if (ratio?.median != null) return `${ratio.median.toFixed(2)}× spec (${ratio.low?.toFixed(2)}–${ratio.high?.toFixed(2)}, n=${ratio.n})`;
  return candidate.measurements.length ? "only above spec (cache)" : "not measured";
}

interface CandidatesTableProps {
  candidates: Candidate[];
  canWrite: boolean;
  onVerify: (candidate: Candidate) => void;
  verifying: number | null;
}

/** The ranked candidates: capacity by spec and as measured, hosts, cost, headroom, and why. */
export function CandidatesTable({ candidates, canWrite, onVerify, verifying }: CandidatesTableProps) {
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="sr-only">Candidates</caption>
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Fits</th>
            <th scope="col">GiB by spec</th>
            <th scope="col">GiB as measured</th>
            <th scope="col">Hosts</th>
            <th scope="col">Per month</th>
            <th scope="col">Headroom</th>
            <th scope="col">Measured</th>
            <th scope="col">Why</th>
            <th scope="col">Verify</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <tr key={c.storage_class_id}>
              <th scope="row">
                {c.name}
                <div className="small muted">
                  {c.protocol} · {c.vendor}
                </div>
              </th>
              <td>{c.feasible ? "yes" : "no"}</td>
              <td className="num">{number(c.capacity_gib)}</td>
              <td className="num">{number(c.measured_capacity_gib)}</td>
              <td className="num">{number(c.hosts)}</td>
              <td className="num">{c.monthly_cost == null ? "no price" : number(c.monthly_cost, 2)}</td>
              <td className="num">{c.headroom == null ? "–" : `${c.headroom.toFixed(2)}×`}</td>
              <td>{measured(c)}</td>
              <td>
                <ul className="small">
                  {c.reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              </td>
              <td>
                {canWrite && c.feasible ? (
                  <button type="button" disabled={verifying !== null} onClick={() => onVerify(c)}>
                    Create verification plan for {c.name}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { RunAggregate } from "../../../lib/api/types";
import { formatBandwidth, formatCount, formatDuration, formatIops, formatNs } from "../../../lib/format";
import { DIRECTIONS, HEADLINE_PERCENTILES } from "../../../lib/latency";

/** What all hosts of a run delivered together, over the window in which every one was running. */
export function AggregateSummary({ aggregate }: { aggregate: RunAggregate }) {
  const headingId = "run-aggregate-heading";
  const title = `Aggregate of ${aggregate.hosts} hosts`;
  const directions = DIRECTIONS.flatMap((name) => {
    const direction = aggregate.directions[name];
    return direction ? [[name, direction] as const] : [];
  });
  return (
    <section className="result aggregate" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <dl className="inline-dl" aria-label={`Measurement of the ${title.toLowerCase()}`}>
        <div>
          <dt>Common window</dt>
          <dd>
            {aggregate.window_s.toFixed(1)} s
            {aggregate.window_s >= 60 ? <span className="muted"> ({formatDuration(aggregate.window_s * 1000)})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Start skew</dt>
          <dd>{aggregate.start_skew_ms === null ? "not measured" : `${aggregate.start_skew_ms.toFixed(1)} ms`}</dd>
        </div>
      </dl>
      <div className="table-scroll">
        <table className="table table-compact result-table">
          <caption className="sr-only">Figures of the {title.toLowerCase()}</caption>
          <thead>
            <tr>
              <th scope="col">Direction</th>
              <th scope="col">Total IOPS</th>
              <th scope="col">Total bandwidth</th>
              {HEADLINE_PERCENTILES.map((p) => (
                <th scope="col" key={p}>
                  p{p} latency
                </th>
              ))}
              <th scope="col">Latency samples</th>
            </tr>
          </thead>
          <tbody>
            {directions.map(([name, direction]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td className="num">{formatIops(direction.iops)}</td>
                <td className="num">{formatBandwidth(direction.bw_bytes)}</td>
                {HEADLINE_PERCENTILES.map((p) => (
                  <td className="num" key={p}>
                    {formatNs(direction.clat_percentiles_ns[p])}
                  </td>
                ))}
                <td className="num">{formatCount(direction.clat_samples)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted">
        Method: {aggregate.method}. IOPS and bandwidth are summed over the hosts; percentiles are completion latency (clat)
        from the hosts&apos; latency histograms merged, not averaged.
      </p>
    </section>
  );
}

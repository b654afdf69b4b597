import type { Result } from "../../../lib/api/types";
import { figureLabel, type FigureName } from "../../../lib/figures";
import { formatBandwidth, formatBytes, formatCount, formatDuration, formatIops, formatMBps, formatNs, formatPercent } from "../../../lib/format";
import { activeDirections, meanSource, percentile, percentileSource } from "../../../lib/latency";
import { FindingsList, SpecCheckBadges } from "../../../components/ui/result-advice";
import { LatencyHistogramChart } from "./latency-histogram-chart";
import { ResultSpread } from "./result-spread";
import { SteadyStateLine } from "./steady-state-line";

/** The figures each direction row shows, in its columns (then the data moved and the runtime). */
const SUMMARY_FIGURES: readonly FigureName[] = ["iops", "bw_bytes", "lat_mean_ns", "clat_p50_ns", "clat_p99_ns", "clat_p99_9_ns", "lat_max_ns"];

function optionText(value: unknown): string {
  return value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** One row per direction that did I/O, one column per headline figure. */
function DirectionFiguresTable({ result, title }: { result: Result; title: string }) {
  return (
    <div className="table-scroll">
      <table className="table table-compact result-table">
        <caption className="sr-only">Figures for {title}</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            {SUMMARY_FIGURES.map((figure) => (
              <th key={figure} scope="col">
                {figureLabel(figure)}
              </th>
            ))}
            <th scope="col">Data</th>
            <th scope="col">Runtime</th>
          </tr>
        </thead>
        <tbody>
          {activeDirections(result).map(([name, direction]) => {
            const mean = meanSource(direction);
            const pct = percentileSource(direction);
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td className="num">{formatIops(direction.iops)}</td>
                <td className="num">
                  <span>{formatBandwidth(direction.bw_bytes)}</span>{" "}
                  <span className="num-alt">{formatMBps(direction.bw_bytes)}</span>
                </td>
                <td className="num">{formatNs(mean?.mean_ns)}</td>
                <td className="num">{formatNs(percentile(pct, "50"))}</td>
                <td className="num">{formatNs(percentile(pct, "99"))}</td>
                <td className="num">{formatNs(percentile(pct, "99.9"))}</td>
                <td className="num">{formatNs(mean?.max_ns)}</td>
                <td className="num">{formatBytes(direction.io_bytes)}</td>
                <td className="num">{formatDuration(direction.runtime_ms)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** CPU use of fio's threads over the run. */
function CpuFigures({ cpu, title }: { cpu: NonNullable<Result["cpu"]>; title: string }) {
  return (
    <dl className="inline-dl" aria-label={`CPU for ${title}`}>
      <div>
        <dt>{figureLabel("cpu_usr_pct")}</dt>
        <dd>{formatPercent(cpu.usr_pct)}</dd>
      </div>
      <div>
        <dt>{figureLabel("cpu_sys_pct")}</dt>
        <dd>{formatPercent(cpu.sys_pct)}</dd>
      </div>
      <div>
        <dt>Context switches</dt>
        <dd>{formatCount(cpu.ctx)}</dd>
      </div>
    </dl>
  );
}

/** The fio options as the run used them, folded away. */
function OptionsAsRun({ options: optionMap }: { options: Result["options"] }) {
  const options = Object.entries(optionMap);
  if (!options.length) return null;
  return (
    <details className="small">
      <summary>fio options as run ({options.length})</summary>
      <ul className="option-list">
        {options.map(([key, value]) => (
          <li key={key}>
            <code>
              {key}={optionText(value)}
            </code>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Headline figures of one result (job × host, and repetition of a repeated run): one row per direction, then CPU. */
export function ResultSummary({ result, repetitions = 1 }: { result: Result; repetitions?: number }) {
  const repetition = repetitions > 1 ? ` · repetition ${(result.repetition ?? 0) + 1} of ${repetitions}` : "";
  const title = `${result.job_name} on ${result.host_name}${repetition}`;
  const headingId = `result-${result.id}-heading`;
  return (
    <section className="result" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {title}
        {result.fio_version ? <span className="muted small"> · {result.fio_version}</span> : null}
      </h3>
      {result.partial ? (
        <p className="note note-warn">
          <strong className="badge badge-warn">partial</strong>: fio was stopped before the end, so these figures cover
          only the time it ran.
        </p>
      ) : null}
      {result.storage_class || result.label ? (
        <dl className="inline-dl" aria-label={`Labels of ${title}`}>
          <div>
            <dt>Storage class</dt>
            <dd>{result.storage_class ?? "—"}</dd>
          </div>
          <div>
            <dt>Label</dt>
            <dd>{result.label ?? "—"}</dd>
          </div>
        </dl>
      ) : null}
      <DirectionFiguresTable result={result} title={title} />
      <SteadyStateLine result={result} title={title} />
      <ResultSpread result={result} title={title} />
      <LatencyHistogramChart result={result} title={title} />
      {result.spec_checks.length ? (
        <div role="group" aria-label={`Spec checks of ${title}`}>
          <SpecCheckBadges checks={result.spec_checks} showDirection />
        </div>
      ) : null}
      <FindingsList findings={result.findings} label={`Findings for ${title}`} />
      {result.cpu ? <CpuFigures cpu={result.cpu} title={title} /> : null}
      <OptionsAsRun options={result.options} />
    </section>
  );
}

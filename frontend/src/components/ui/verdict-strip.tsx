import { Link } from "react-router";
import type { HeadlineFigure, Verdict, VerdictLine } from "../../lib/api/types";
import { figureLabel } from "../../lib/figures";
import { formatSpecFigure, formatValue } from "../../lib/format";

// Every standing is said in words as well as in colour: a screen reader, a print or a
// colour-blind reader gets the same verdict.
const SPEC_WORDS = {
  meets: { text: "meets spec", badge: "badge-ok" },
  below: { text: "below spec", badge: "badge-bad" },
  above: { text: "above spec (cache?)", badge: "badge-warn" },
} as const;

const COMPARISON_WORDS = {
  better: { text: "better", badge: "badge-ok" },
  worse: { text: "worse", badge: "badge-bad" },
  no_change: { text: "no change", badge: "badge-muted" },
  cant_tell: { text: "can't tell: repeat", badge: "badge-info" },
  too_few: { text: "too few repetitions", badge: "badge-info" },
} as const;

const REGRESSION_WORDS = {
  regression: { text: "Regression, not acknowledged", badge: "badge-bad" },
  acknowledged: { text: "Regression acknowledged", badge: "badge-warn" },
  improvement: { text: "Improvement", badge: "badge-ok" },
  ok: { text: "No regression", badge: "badge-ok" },
  not_watched: { text: "Not in a target's history", badge: "badge-muted" },
} as const;

const SEVERITY_BADGES = { critical: "badge-bad", warning: "badge-warn", info: "badge-info" } as const;

function SpecCell({ figure }: { figure: HeadlineFigure }) {
  const spec = figure.spec;
  if (!spec) return null;
  const words = SPEC_WORDS[spec.verdict];
  return (
    <div className="verdict-spec small">
      <span className={`badge ${words.badge}`}>{words.text}</span>{" "}
      <span className="muted">
        expected {formatSpecFigure(spec.expected, spec.unit)} · {Math.round(spec.percent)}%
      </span>
    </div>
  );
}

function PreviousCell({ figure }: { figure: HeadlineFigure }) {
  const verdict = figure.previous?.verdict;
  if (!figure.previous || !verdict) return null;
  const words = COMPARISON_WORDS[verdict.kind];
  const delta = figure.previous.delta_pct;
  return (
    <div className="verdict-previous small" title={verdict.text}>
      <span className={`badge ${words.badge}`}>{words.text}</span>{" "}
      <span className="muted">
        {delta !== null && delta !== undefined ? `${delta > 0 ? "+" : ""}${delta.toFixed(1)}% ` : ""}
        vs {formatValue(figure.unit, figure.previous.value)}
        {verdict.test ? ` · ${verdict.test_reason}` : ""}
      </span>
    </div>
  );
}

/** One direction of one job: each headline figure, then its standing against the spec and the previous run. */
function LineFigures({ line }: { line: VerdictLine }) {
  const title = `${line.job_name} ${line.direction} on ${line.host_name}${line.n > 1 ? ` (median of ${line.n})` : ""}`;
  return (
    <div className="verdict-line" role="group" aria-label={title}>
      <div className="verdict-line-title small muted">{title}</div>
      <dl className="verdict-figures">
        {line.figures.map((figure) => (
          <div key={figure.figure} className="verdict-figure">
            <dt>{figureLabel(figure.figure)}</dt>
            <dd>
              <strong className="verdict-value tabular">{formatValue(figure.unit, figure.value)}</strong>
              <SpecCell figure={figure} />
              <PreviousCell figure={figure} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The regression state, the previous run (with a link to the comparison) and the worst finding. */
function VerdictFacts({ verdict }: { verdict: Verdict }) {
  const regression = REGRESSION_WORDS[verdict.regression.state];
  const worst = verdict.worst_finding;
  return (
    <ul className="verdict-facts">
      <li>
        <span className={`badge ${regression.badge}`}>{regression.text}</span>{" "}
        {verdict.regression.state === "regression" ? (
          <Link to="/regressions">{verdict.regression.message}</Link>
        ) : (
          <span className="muted small">{verdict.regression.message}</span>
        )}
      </li>
      <li>
        {verdict.previous_run ? (
          <>
            Previous run:{" "}
            <Link to={`/runs/${verdict.previous_run.run_id}`}>run #{verdict.previous_run.run_id}</Link>{" "}
            <span className="muted small">({verdict.previous_note})</span>
          </>
        ) : verdict.previous_import ? (
          <>
            Previous import:{" "}
            <Link to={`/results/${verdict.previous_import.result_id}`}>result #{verdict.previous_import.result_id}</Link>{" "}
            (<Link to={verdict.previous_import.compare_path}>compare</Link>){" "}
            <span className="muted small">({verdict.previous_note})</span>
          </>
        ) : (
          <span className="muted small">Previous run: {verdict.previous_note}</span>
        )}
      </li>
      <li>
        {worst ? (
          <>
            <span className={`badge ${SEVERITY_BADGES[worst.finding.severity]}`}>{worst.finding.severity}</span>{" "}
            {worst.finding.message}. <strong>Fix:</strong> {worst.finding.fix}
            {worst.total > 1 ? <span className="muted small"> ({worst.total - 1} more below)</span> : null}
          </>
        ) : (
          <span className="muted small">No methodology findings.</span>
        )}
      </li>
    </ul>
  );
}

/** What a run or result page opens with: the headline figures and what they mean. */
export function VerdictStrip({ verdict, title = "Verdict" }: { verdict: Verdict; title?: string }) {
  const spec = verdict.spec === "no_spec" ? null : SPEC_WORDS[verdict.spec];
  return (
    <section className="panel verdict-strip" aria-labelledby="verdict-heading">
      <h2 id="verdict-heading">
        {title}{" "}
        {spec ? (
          <span className={`badge ${spec.badge}`}>{spec.text}</span>
        ) : (
          <span className="badge badge-muted">no spec</span>
        )}
      </h2>
      {verdict.lines.length === 0 ? <p className="muted">No figures yet.</p> : null}
      {verdict.lines.map((line) => (
        <LineFigures key={`${line.job_name}-${line.host_name}-${line.direction}`} line={line} />
      ))}
      <VerdictFacts verdict={verdict} />
    </section>
  );
}

import { memo } from "react";
import { NumCell } from "../../../components/ui/num-cell";
import { figureLabel } from "../../../lib/figures";
import { formatValue } from "../../../lib/format";
import type { Comparison, ComparisonCell, ComparisonRow } from "../api/get-comparison";
import { formatDeltaPct, isBetter } from "./figure-format";

/** In words, not only colour: a verdict read aloud, printed or pasted must still say which way. */
const VERDICT_WORDS: Record<string, string> = {
  better: "better",
  worse: "worse",
  no_change: "no change",
  cant_tell: "can't tell: repeat",
  too_few: "too few on one side",
};

const TEST_WORDS: Record<string, string> = {
  welch_t_log: "Welch's t on logs",
  mann_whitney_u: "Mann–Whitney U",
  no_variation: "no variation",
};

function DeltaCell({ row, cell, isReference }: { row: ComparisonRow; cell: ComparisonCell; isReference: boolean }) {
  if (isReference) return <NumCell>baseline</NumCell>;
  const better = isBetter(cell.delta_pct, row.higher_is_better);
  const verdict = cell.verdict;
  return (
    <NumCell title={verdict?.text}>
      <span className={better === null ? undefined : better ? "delta-better" : "delta-worse"}>{formatDeltaPct(cell.delta_pct)}</span>
      {verdict ? <span className={`verdict verdict-${verdict.kind}`}> {VERDICT_WORDS[verdict.kind] ?? verdict.kind}</span> : null}
      {verdict ? (
        <span className="small muted verdict-test">
          {" "}
          {verdict.test ? (TEST_WORDS[verdict.test] ?? verdict.test) : "no test"}, n = {verdict.n} vs {verdict.n_reference}
        </span>
      ) : null}
    </NumCell>
  );
}

/** Every figure per direction side by side: the value (median of repetitions), and its change against the reference. */
export const ComparisonTable = memo(function ComparisonTable({ comparison }: { comparison: Comparison }) {
  const { sides, rows } = comparison;
  return (
    <div className="table-frame">
      <table aria-label="Figures side by side" className="compare-table">
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {sides.map((side) => (
              <th scope="colgroup" colSpan={2} key={side.index} className="num">
                {side.title}
                <span className="small muted">
                  {" "}
                  n={side.n}
                  {side.is_baseline ? " · baseline" : ` · vs ${sides[side.reference]?.title ?? "baseline"}`}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.direction}-${row.figure}`}>
              <th scope="row">
                {figureLabel(row.figure)} <span className="muted small">{row.direction === "job" ? "" : row.direction}</span>
              </th>
              {row.cells.map((cell, index) => (
                <FigureCells key={index} row={row} cell={cell} isReference={sides[index]?.is_baseline ?? false} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <TestReasons rows={rows} />
    </div>
  );
});

/** Which tests decided the verdicts above, and why each was chosen: in the page, not only in a hover. */
function TestReasons({ rows }: { rows: ComparisonRow[] }) {
  const reasons = new Map<string, string>();
  for (const row of rows) {
    for (const cell of row.cells) {
      const verdict = cell.verdict;
      if (!verdict) continue;
      const test = verdict.test ? (TEST_WORDS[verdict.test] ?? verdict.test) : "No test";
      reasons.set(`${test}: ${verdict.test_reason}`, test);
    }
  }
  if (reasons.size === 0) return null;
  return (
    <ul className="small muted" aria-label="Tests used">
      {[...reasons.keys()].map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}

function FigureCells({ row, cell, isReference }: { row: ComparisonRow; cell: ComparisonCell; isReference: boolean }) {
  return (
    <>
      <NumCell title={cell.samples.length > 1 ? `median of ${cell.samples.length} repetitions` : undefined}>
        {formatValue(row.unit, cell.value)}
      </NumCell>
      <DeltaCell row={row} cell={cell} isReference={isReference} />
    </>
  );
}

import { memo } from "react";
import { figureLabel } from "../../../lib/figures";
import type { Comparison } from "../api/get-comparison";

/** The figures a reader looks at first: their verdicts are spelled out in full. */
const HEADLINE = new Set(["iops", "bw_bytes", "lat_mean_ns", "clat_p99_ns"]);

/** Each side's verdict on the headline figures: the test, the p-value and the effect size with its interval. */
export const VerdictList = memo(function VerdictList({ comparison }: { comparison: Comparison }) {
  const items = comparison.rows
    .filter((row) => HEADLINE.has(row.figure))
    .flatMap((row) =>
      row.cells.flatMap((cell, index) => {
        const side = comparison.sides[index];
        if (!cell.verdict || !side || side.is_baseline) return [];
        return [{ key: `${row.direction}-${row.figure}-${index}`, side: side.title, figure: `${figureLabel(row.figure)} ${row.direction}`, verdict: cell.verdict }];
      }),
    );
  if (items.length === 0) return <p className="muted">No side to test against the baseline.</p>;
  return (
    <ul className="verdicts" aria-label="Verdicts">
      {items.map((item) => (
        <li key={item.key} className={`verdict-${item.verdict.kind}`}>
          <strong>
            {item.side} — {item.figure}:
          </strong>{" "}
          {item.verdict.text}
          {item.verdict.test_reason ? <span className="muted"> (why this test: {item.verdict.test_reason})</span> : null}
        </li>
      ))}
    </ul>
  );
});

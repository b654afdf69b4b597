import type { ExpectedFigure } from "../../../lib/api/types";
import { formatSpecFigure } from "../../../lib/format";

/** "14,000 IOPS", "300 MB/s (286 MiB/s)": a figure as its publisher gives it, MiB/s beside MB/s. */
export function formatExpected(figure: ExpectedFigure): string {
  return formatSpecFigure(figure.value, figure.unit);
}

/** The figures a preset's publisher reports for it, as they published them. */
export function ExpectedFigures({ figures = [], caption }: { figures?: ExpectedFigure[]; caption: string }) {
  if (figures.length === 0) return <p className="muted small">The publisher gives no expected figures.</p>;
  return (
    <table className="table table-compact">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Expected</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        {figures.map((figure, index) => (
          <tr key={index}>
            <th scope="row" className="num">
              {formatExpected(figure)}
            </th>
            <td className="small">{figure.note ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

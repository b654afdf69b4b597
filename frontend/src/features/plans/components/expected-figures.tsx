import type { ExpectedFigure } from "../../../lib/api-types";

/** The figures a preset's publisher reports for it, as they published them. */
export function ExpectedFigures({ figures, caption }: { figures: ExpectedFigure[]; caption: string }) {
  if (figures.length === 0) return <p className="muted small">The publisher gives no expected figures.</p>;
  return (
    <table className="table table-compact">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Metric</th>
          <th scope="col">Expected</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        {figures.map((figure, index) => (
          <tr key={`${figure.metric}-${index}`}>
            <th scope="row">{figure.metric}</th>
            <td className="num">
              {figure.value.toLocaleString("en-US")} {figure.unit}
            </td>
            <td className="small">{figure.note ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

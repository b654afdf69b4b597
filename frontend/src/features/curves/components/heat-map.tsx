import { formatValue } from "../../../lib/format";
import type { Curves } from "../api/get-curves";
import { axisLabel } from "./curve-rows";
import { heatGrid, shade } from "./heat-grid";

/** Two swept axes as a table coloured by the figure: each cell says its value (the colour only helps the eye). */
export function HeatMap({ curves }: { curves: Curves }) {
  const grid = heatGrid(curves.curves);
  if (!grid) return null;
  const unit = curves.figure.unit;
  return (
    <section aria-labelledby="heat-map-heading">
      <h2 id="heat-map-heading">
        {curves.figure.label} by {grid.across} × {curves.axis}
      </h2>
      <p className="small muted">Darker is higher; every cell shows its figure (the median of its repetitions).</p>
      <div className="table-scroll">
        <table className="table table-compact heat-map" aria-label={`${curves.figure.label} heat map`}>
          <thead>
            <tr>
              <th scope="col">
                {grid.across} ↓ · {curves.axis} →
              </th>
              {grid.columns.map((column) => (
                <th key={column} scope="col">
                  {axisLabel(curves.axis, column)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rows.map((row, rowIndex) => (
              <tr key={row}>
                <th scope="row">{axisLabel(grid.across, row)}</th>
                {grid.columns.map((column, columnIndex) => {
                  const value = grid.cells[rowIndex]?.[columnIndex] ?? null;
                  const strength = value === null ? 0 : shade(grid, value);
                  return (
                    <td
                      key={column}
                      className="num"
                      style={value === null ? undefined : { background: `rgba(37, 99, 235, ${0.1 + 0.7 * strength})`, color: strength > 0.6 ? "white" : undefined }}
                    >
                      {value === null ? "—" : formatValue(unit, value)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

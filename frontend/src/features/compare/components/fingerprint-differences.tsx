import { memo } from "react";
import type { ComparisonSide, FingerprintDifference } from "../api/get-comparison";

const COMPONENT_LABELS: Record<string, string> = {
  job: "Job options",
  fio_version: "fio version",
  host: "Host class",
  mount: "Mount",
  storage: "Storage",
};

function show(value: FingerprintDifference["values"][number]): string {
  if (value === null || value === undefined) return "not known";
  return String(value);
}

/** What differs in how the sides were measured, component by component: shown before any number. */
export const FingerprintDifferences = memo(function FingerprintDifferences({ differences, sides }: { differences: FingerprintDifference[]; sides: ComparisonSide[] }) {
  if (differences.length === 0) {
    return (
      <p className="notice" role="status">
        Every side was measured the same way (same job options, fio version, host class, mount and storage): the figures compare fairly.
      </p>
    );
  }
  return (
    <div className="table-frame">
      <p className="notice notice-warning">
        These results were not measured the same way. Read the differences below before the numbers.
      </p>
      <table aria-label="What differs between the sides">
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Setting</th>
            {sides.map((side) => (
              <th scope="col" key={side.index}>
                {side.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {differences.map((difference) => (
            <tr key={difference.key}>
              <th scope="row">{COMPONENT_LABELS[difference.component] ?? difference.component}</th>
              <td>{difference.key.split(".").slice(1).join(".") || difference.key}</td>
              {difference.values.map((value, index) => (
                <td key={index}>{show(value)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});

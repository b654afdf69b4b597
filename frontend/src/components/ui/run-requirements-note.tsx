import type { ReactNode } from "react";
import type { JobRequirement } from "../../lib/fio";

/** Options the server will refuse at run start, said before anything is sent (not blocking). */
export function RunRequirementsNote({ items, children }: { items: JobRequirement[]; children: ReactNode }) {
  if (items.length === 0) return null;
  return (
    <div className="alert alert-warn" role="note" aria-label="Runs will refuse">
      {children}
      <ul className="alert-list">
        {items.map((item, index) => (
          <li key={index}>
            <code>
              [{item.job}] {item.option}
            </code>
            : {item.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

import type { ReactNode } from "react";

/** A table cell holding a figure: right-aligned, tabular digits, kept on one line. */
export function NumCell({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <td className="num" title={title}>
      {children}
    </td>
  );
}

/** A column header over figures, aligned with them. */
export function NumHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="num">
      {children}
    </th>
  );
}

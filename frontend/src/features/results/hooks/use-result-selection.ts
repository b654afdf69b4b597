import { useCallback, useMemo, useState } from "react";

/** The results ticked in the history, kept across pages and filters, in the order they were ticked. */
export function useResultSelection() {
  const [ids, setIds] = useState<number[]>([]);
  const toggle = useCallback((id: number, selected: boolean) => {
    setIds((current) => {
      if (selected) return current.includes(id) ? current : [...current, id];
      return current.filter((item) => item !== id);
    });
  }, []);
  const clear = useCallback(() => setIds([]), []);
  const selected = useMemo(() => new Set(ids), [ids]);
  return { ids, selected, toggle, clear };
}

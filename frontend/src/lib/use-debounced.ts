import { useEffect, useState } from "react";

/** value, once it has stayed the same for delayMs (the first value at once). */
export function useDebounced<T extends string>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

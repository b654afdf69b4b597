import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";
import { setCsrfToken } from "../lib/session";

// jsdom has no layout: Recharts' ResponsiveContainer needs a ResizeObserver to exist.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;

// findBy*/waitFor wait for a condition; this is only how long before they give up. Pages load lazily
// (a module import, then their queries), which on a busy 2-core machine took over the default 1 s.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  setCsrfToken(null);
});

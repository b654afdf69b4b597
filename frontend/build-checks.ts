import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * Text only a library's development build carries (its dev warnings, which the production build
 * drops): react-router 7's package exports point at its development build whatever the mode
 * (remix-run/react-router#12532, #14102), so a plain `vite build` ships it.
 */
export const DEVELOPMENT_MARKERS: Record<string, string[]> = {
  "react-router": ["You rendered descendant <Routes>", "Error handled by React Router default ErrorBoundary"],
};

/** The libraries whose development build shows in these chunks, with the chunk each shows in. */
export function developmentBuildsIn(chunks: { fileName: string; code: string }[]): string[] {
  const found: string[] = [];
  for (const [library, markers] of Object.entries(DEVELOPMENT_MARKERS)) {
    const chunk = chunks.find((candidate) => markers.some((marker) => candidate.code.includes(marker)));
    if (chunk) found.push(`${library} (in ${chunk.fileName})`);
  }
  return found;
}

/** Builds with react-router's production build (its own exports only name the development one). */
export function reactRouterProduction(): Plugin {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve("react-router/package.json"));
  return {
    name: "storbench-react-router-production",
    apply: "build",
    config: () => ({
      resolve: {
        alias: [{ find: /^react-router$/, replacement: path.join(root, "dist/production/index.mjs") }],
      },
    }),
  };
}

/** Fails the build when a library's development build made it into the bundle. */
export function noDevelopmentBuilds(): Plugin {
  return {
    name: "storbench-no-development-builds",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === "chunk" ? [output] : []));
      const found = developmentBuildsIn(chunks);
      if (found.length) {
        this.error(`development build in the production bundle: ${found.join(", ")}; see build-checks.ts`);
      }
    },
  };
}

import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** What a first page load may download in JavaScript, gzipped (issue: under 250 KB). */
export const INITIAL_JS_BUDGET_BYTES = Number(process.env.STORBENCH_INITIAL_JS_BUDGET_BYTES) || 250 * 1000;

interface ChunkLike {
  type: "chunk";
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * Reports the gzipped size of the JavaScript a first page load needs (the entry chunks and
 * everything they import statically; lazy chunks are listed apart) and fails the build above
 * the budget.
 */
export function bundleBudget(budgetBytes: number = INITIAL_JS_BUDGET_BYTES): Plugin {
  return {
    name: "storbench-bundle-budget",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const output of Object.values(bundle)) {
        if (output.type === "chunk") chunks.set(output.fileName, output as unknown as ChunkLike);
      }
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const sizes = new Map([...chunks.values()].map((c) => [c.fileName, gzipSync(c.code).length]));
      const total = [...initial].reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0);
      const lazy = [...chunks.keys()].filter((name) => !initial.has(name));
      const lines = [
        `initial JavaScript: ${kb(total)} gzipped (budget ${kb(budgetBytes)}) in ${[...initial].join(", ")}`,
      ];
      for (const name of lazy.sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0))) {
        lines.push(`  loaded when needed: ${name} ${kb(sizes.get(name) ?? 0)} gzipped`);
      }
      console.log(`\n${lines.join("\n")}\n`);
      if (total > budgetBytes) {
        this.error(
          `initial JavaScript is ${kb(total)} gzipped, over the ${kb(budgetBytes)} budget: ` +
            "load more routes or libraries lazily (React.lazy / import())",
        );
      }
    },
  };
}

import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { readdirSync } from "node:fs";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Imports flow one way: app → features → shared code (components, lib). A feature does not
 * import another (the app composes them), nor the app; shared code imports neither.
 */
const BOUNDARIES = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: "./src/features",
    except: [`./${feature}`],
    message: "Features do not import each other: move the shared piece to components/lib, or compose the two in app.",
  })),
  { target: "./src/features", from: "./src/app", message: "Features do not import the app." },
  {
    target: ["./src/components", "./src/lib"],
    from: ["./src/features", "./src/app"],
    message: "Shared code (components, lib) imports neither features nor the app.",
  },
];

// Syntax-level rules only (no type information): fast enough to run on every lint.
export default tseslint.config(
  { ignores: ["dist", "node_modules", "coverage"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".d.ts", ".js", ".json"] })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/features/*/index", "**/index"],
              message: "No barrel files: import the module itself.",
            },
          ],
        },
      ],
      "import-x/no-restricted-paths": ["error", { zones: BOUNDARIES }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // Functions fit on a screen. Tests are left out: a describe block groups cases, it is not a function.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 80 }] },
  },
  {
    // Product modules stay a few hundred lines, as scripts/check_sizes.py asks of Python. Tests and
    // their helpers (src/test) are left out, and so is the generated API schema.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/**/*.test.{ts,tsx}", "src/test/**", "src/lib/api/schema.d.ts"],
    rules: { "max-lines": ["error", { max: 400 }] },
  },
  {
    // Tests may render the whole app (src/test/render-app) whichever feature they exercise.
    files: ["src/test/**"],
    rules: { "import-x/no-restricted-paths": "off" },
  },
);

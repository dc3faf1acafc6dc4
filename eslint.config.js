import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      ".data/",
      "test-results/",
      "playwright-report/",
      "drizzle/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["../*", "../**"],
              message: "Import across folders with #app/… so moves stay safe.",
            },
          ],
        },
      ],
    },
  },
  {
    // Server-only modules must never be imported by the shared helpers in lib/ that reach the
    // browser bundle.
    files: ["app/lib/**/*.ts", "app/components/**/*.tsx"],
    ignores: ["app/lib/**/*.server.ts", "app/lib/**/*.server.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/*.server.ts", "**/*.server"],
              allowTypeImports: true,
              message: "Client code cannot import server-only modules.",
            },
          ],
        },
      ],
    },
  },
  {
    // The unit tests share their processes between files (vitest.config.ts): a file that
    // changed the environment would change it for the files after it.
    files: ["**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "vi",
          property: "stubEnv",
          message: "Test files share their process: pass settings to what you test instead.",
        },
      ],
      "no-restricted-syntax": [
        "error",
        ...[
          "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          "UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']",
          "CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.object.name='process'][arguments.0.property.name='env']",
        ].map((selector) => ({
          selector,
          message: "Test files share their process: pass settings to what you test instead.",
        })),
      ],
    },
  },
  {
    // Playwright fixtures hand values on with a function called `use`, not React's hook.
    files: ["tests/e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);

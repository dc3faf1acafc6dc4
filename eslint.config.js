import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Patterns are gitignore-style, where a leading "#" starts a comment: "\\#app/…" is the alias.
// One list of import patterns per folder: a later config's `no-restricted-imports` replaces an
// earlier one's for the files both match, so each folder's list repeats the rules for all.
const acrossFolders = {
  group: ["../*", "../**"],
  message: "Import across folders with #app/… so moves stay safe.",
};
const serverOnly = {
  group: ["**/*.server.ts", "**/*.server"],
  allowTypeImports: true,
  message: "Client code cannot import server-only modules.",
};
const noScreens = {
  group: ["\\#app/routes/**", "\\#app/components/**", "\\#app/root.tsx"],
  message:
    "Imports go shared → domain → routes: routes and components build on this, not the other way.",
};
const noDatabase = {
  group: ["\\#app/db/**"],
  message: "lib/ is shared by everything, the browser included: it never reaches the database.",
};
const noDomain = {
  group: ["\\#app/domain/**"],
  message: "lib/ is shared by every domain: it never builds on one.",
};
const statusTypesOnly = [
  {
    regex: "^#app/domain/(?![^/]+/status\\.ts$)",
    message: "The schema and the e-mails take only the vocabularies' types (domain/*/status.ts).",
  },
  {
    group: ["\\#app/domain/*/status.ts"],
    allowTypeImports: true,
    message: "The schema and the e-mails take only the vocabularies' types (import type).",
  },
];
const restrictImports = (...patterns) => ({
  "no-restricted-imports": ["error", { patterns: [acrossFolders, ...patterns] }],
});
// Tests may reach across (a route's test beside a domain, fixtures from tests/support).
const notTests = ["**/*.test.ts"];

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
      ...restrictImports(),
    },
  },
  // Import direction (shared → domain → routes), enforced rather than remembered.
  {
    files: ["app/domain/**/*.ts"],
    ignores: notTests,
    rules: restrictImports(noScreens),
  },
  {
    // The schema and the e-mail templates sit under the domains: they name a domain's
    // vocabulary, and nothing else of it.
    files: ["app/db/**/*.ts", "app/emails/**/*.ts"],
    ignores: notTests,
    rules: restrictImports(noScreens, ...statusTypesOnly),
  },
  {
    files: ["app/lib/**/*.server.ts"],
    ignores: notTests,
    rules: restrictImports(noScreens, noDatabase, noDomain),
  },
  {
    // Server-only modules must never be imported by the shared helpers in lib/ that reach the
    // browser bundle.
    files: ["app/lib/**/*.ts"],
    ignores: ["app/lib/**/*.server.ts", ...notTests],
    rules: restrictImports(serverOnly, noScreens, noDatabase, noDomain),
  },
  {
    // Components keep their relative imports of each other for now (`../ui/button.tsx`).
    files: ["app/components/**/*.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly] }] },
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

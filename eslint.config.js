// ESLint: TypeScript, React hooks and accessibility rules. Formatting is Prettier's job
// (eslint-config-prettier turns off the rules that would disagree with it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "public/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two classic hook rules. The React Compiler rules of eslint-plugin-react-hooks 7
    // (set-state-in-effect, refs, …) flag 12 places written for React 19 without the compiler;
    // they are left for when the compiler is adopted.
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // autoFocus appears only inside native <dialog> elements: showModal() moves focus to that
    // control, as the dialog pattern asks.
    files: ["app/**/*.tsx"],
    rules: { "jsx-a11y/no-autofocus": "off" },
  },
  {
    // Playwright fixtures destructure nothing from the fixtures they do not need: `async ({}, use)`.
    files: ["tests/e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
  },
  prettier,
);

// ESLint for the web client (src/primero/web/, browser ES modules) and its unit tests
// here (Node). `npm run lint` here runs it from the repository root (tests/web/test_js.py does).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["src/primero/web/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: globals.browser},
  },
  {
    files: ["tests/js/**/*.js"],
    ignores: ["tests/js/node_modules/**"],
    ...js.configs.recommended,
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: globals.node},
  },
];

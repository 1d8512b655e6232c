import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * A zod schema built at a module's top level is built at every start of the server, used or not (issue 34):
 * such schemas go through lazySchema (server/src/http/schema-helpers.ts), which builds them on first use.
 */
const eagerSchema = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const rootOf = (node) => {
      for (;;) {
        if (node?.type === "CallExpression") node = node.callee;
        else if (node?.type === "MemberExpression") node = node.object;
        else if (node?.type === "TSAsExpression" || node?.type === "TSSatisfiesExpression") node = node.expression;
        else return node;
      }
    };
    return {
      VariableDeclarator(node) {
        const declaration = node.parent;
        const top = declaration.parent?.type === "Program" || declaration.parent?.parent?.type === "Program";
        if (!top || !node.init) return;
        const root = rootOf(node.init);
        if (root?.type === "Identifier" && root.name === "z" && node.init.type !== "Identifier")
          context.report({
            node: node.init,
            message:
              "a zod schema at module level is built at every start: wrap it in lazySchema(() => ...) (http/schema-helpers.ts)",
          });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "server/bundle/**",
      "**/node_modules/**",
      "web/src/api/schema.d.ts",
      "e2e/artifacts/**",
      "**/*.config.js",
    ],
  },
  js.configs.recommended,

  ...tseslint.configs.recommended,
  {
    // Test chaincodes and the JavaScript boilerplate are CommonJS Node.js projects of their own
    // (fabric-shim loads them with require).
    files: [
      "server/src/fabric/test-support/chaincode/**/*.js",
      "server/src/runtime/testdata/sandbox-attack/*.js",
      "server/boilerplates/chaincode-javascript/**/*.js",
    ],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        Buffer: "readonly",
        process: "readonly",
        __dirname: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Node scripts of the repository (ES modules).
    files: ["scripts/**/*.mjs", "server/scripts/**/*.mjs"],
    languageOptions: { globals: { console: "readonly", process: "readonly" } },
  },
  {
    // The bundle's entry (bundle/main.js): a CommonJS script, as the code cache needs.
    files: ["server/scripts/**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", process: "readonly", Buffer: "readonly", __dirname: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["server/src/**/*.ts"],
    ignores: ["server/src/**/*.test.ts", "server/src/**/test-support/**", "server/src/builtins/**"],
    plugins: { chainlaunch: { rules: { "eager-schema": eagerSchema } } },
    rules: { "chainlaunch/eager-schema": "error" },
  },
  {
    // The TypeScript boilerplate's decorators read emitted type metadata, which needs value imports.
    files: ["server/boilerplates/chaincode-typescript/**/*.ts"],
    rules: { "@typescript-eslint/consistent-type-imports": "off" },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
);

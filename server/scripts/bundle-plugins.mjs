// The esbuild plugins of the server's bundle (scripts/bundle.mjs), each there for start-up time (issue 34).
import { readFileSync } from "node:fs";
import { join } from "node:path";

// The generated protobuf code of @hyperledger/fabric-protos takes ~30 ms to evaluate, and only Fabric
// operations use it. The server's imports of it get namespaces that load it on first use (so a module's
// top level must not read them: server/src/fabric/enum-names.ts).
const PROTO_NAMESPACES = [
  "common",
  "gossip",
  "peer",
  "discovery",
  "ledger",
  "gateway",
  "orderer",
  "transientstore",
  "msp",
  "google",
];
// An object standing for what `load` returns, loaded (once) at its first use.
const LAZY_PROXY = `
const lazy = (load) => {
  let loaded;
  const real = () => (loaded ??= load());
  return new Proxy({}, {
    get: (_, key) => real()[key],
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
  });
};
`;
// google-protobuf's Timestamp, which the server imports on its own (fabric-protos doesn't export it), loads
// the whole google-protobuf runtime with it.
const LAZY_MODULES = {
  "@hyperledger/fabric-protos": PROTO_NAMESPACES.map(
    (n) => `export const ${n} = lazy(() => require("@hyperledger/fabric-protos")[${JSON.stringify(n)}]);`,
  ).join("\n"),
  "google-protobuf/google/protobuf/timestamp_pb.js": `export default lazy(() => require("google-protobuf/google/protobuf/timestamp_pb.js"));`,
};
const LAZY_PATHS = new RegExp(
  `^(${Object.keys(LAZY_MODULES)
    .map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join("|")})$`,
);
const lazyProtos = (root) => ({
  name: "lazy-fabric-protos",
  setup(b) {
    b.onResolve({ filter: LAZY_PATHS }, (args) =>
      args.importer.startsWith(join(root, "dist")) ? { path: args.path, namespace: "lazy-fabric-protos" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-fabric-protos" }, (args) => ({
      resolveDir: root,
      loader: "js",
      contents: LAZY_PROXY + LAZY_MODULES[args.path],
    }));
  },
});

// import() of a module left outside the bundle (Node built-ins, the pg driver, node-pty) would need a dynamic-import
// callback on the vm.Script, which Node 20 drops when the script comes from a code cache. They are
// required instead, still on first use; these are all CommonJS or built-ins.
const dynamicRequires = (root) => ({
  name: "dynamic-requires",
  setup(b) {
    b.onResolve({ filter: /^(node:[a-z_/]+|pg|@lydell\/node-pty)$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "dynamic-require" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "dynamic-require" }, (args) => ({
      resolveDir: root,
      loader: "js",
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
    }));
  },
});

/** Replaces `from` by `to` in `text`, once: a dependency whose code changed fails the build, not the start. */
function patchOnce(text, from, to, file) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `bundle: ${file} changed (its patch expects one ${JSON.stringify(from.slice(0, 60))}); review the patch`,
    );
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

// find-my-way compiles a small function with new Function for each node of its route tree (the prefix test)
// and for each route (its params object and its constraints test), as the route is added, and again for
// each node a later route splits. ~1,000 routes (HEAD twins included) made that ~40 ms of a start, and
// code made by new Function is not in the code cache. The per-route functions are now compiled when the
// router first uses them, and the prefix test, which only route insertion uses, is a startsWith (same
// answers; server/src/http/bundle-router.test.ts compares the two routers' trees and lookups).

/** find-my-way's files that routerCompilingOnUse patches. */
export const ROUTER_FILES = /[\\/]node_modules[\\/]find-my-way[\\/]lib[\\/](node|handler-storage)\.js$/;

/** find-my-way's `path` (lib/node.js or lib/handler-storage.js) with its compilations made on first use. */
export function routerCompilingOnUse(path, source) {
  let text = source;
  if (path.endsWith("node.js")) {
    text = patchOnce(
      text,
      [
        "  const lines = []",
        "  for (let i = 1; i < prefix.length; i++) {",
        "    const charCode = prefix.charCodeAt(i)",
        "    lines.push(`path.charCodeAt(i + ${i}) === ${charCode}`)",
        "  }",
        "  return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line",
      ].join("\n"),
      `  // Only route insertion tests prefixes (find() walks the tree with its own code): startsWith gives the
  // compiled test's answer (the caller has checked the first character) without compiling one per node.
  return function matchPrefix (path, i) {
    return path.startsWith(prefix, i)
  }`,
      path,
    );
  } else {
    text = patchOnce(
      text,
      "_createParamsObject: this._compileCreateParamsObject(params)",
      `_createParamsObject: ((storage) => {
        let compiled = null
        return function createParamsObjectOnUse (param0, param1, param2, param3, extraParams) {
          if (compiled === null) compiled = storage._compileCreateParamsObject(params)
          return compiled(param0, param1, param2, param3, extraParams)
        }
      })(this)`,
      path,
    );
    text = patchOnce(
      text,
      "      this._compileGetHandlerMatchingConstraints(constrainer, constraints)\n",
      `      this._getHandlerMatchingConstraints = function getHandlerMatchingConstraintsOnUse (derivedConstraints) {
        this._compileGetHandlerMatchingConstraints(constrainer, constraints)
        return this._getHandlerMatchingConstraints(derivedConstraints)
      }
`,
      path,
    );
  }
  return text;
}

const routerCompilesOnUse = () => ({
  name: "router-compiles-on-use",
  setup(b) {
    b.onLoad({ filter: ROUTER_FILES }, (args) => ({
      contents: routerCompilingOnUse(args.path, readFileSync(args.path, "utf8")),
      loader: "js",
    }));
  },
});

// depd (http-errors' deprecation messages) reads its caller's file and line when it is set up, at start-up.
// The first stack trace with positions makes V8 index the lines of the script it points into, here the
// whole 14 MB bundle: ~17 ms of every start for a message http-errors prints only for a wrong status
// code. This stand-in prints the same kind of message, once each, through process.emitWarning (so
// --no-deprecation and --throw-deprecation apply), without the caller's position.
const depdWithoutCallSites = () => ({
  name: "depd-without-call-sites",
  setup(b) {
    b.onResolve({ filter: /^depd$/ }, () => ({ path: "depd", namespace: "depd-without-call-sites" }));
    b.onLoad({ filter: /.*/, namespace: "depd-without-call-sites" }, () => ({
      loader: "js",
      contents: `
module.exports = function depd(namespace) {
  const said = new Set();
  function deprecate(message) {
    if (said.has(message)) return;
    said.add(message);
    process.emitWarning(namespace + " deprecated " + message, "DeprecationWarning");
  }
  deprecate.function = function (fn, message) {
    const text = message || (fn.name || "anonymous") + "()";
    return function () {
      deprecate(text);
      return fn.apply(this, arguments);
    };
  };
  deprecate.property = function (obj, prop, message) {
    const d = Object.getOwnPropertyDescriptor(obj, prop);
    if (!d || !d.configurable) return;
    const text = message || prop;
    const isValue = "value" in d;
    let value = d.value;
    Object.defineProperty(obj, prop, {
      configurable: true,
      enumerable: d.enumerable,
      get() { deprecate(text); return isValue ? value : d.get && d.get.call(this); },
      set(v) { deprecate(text); if (isValue) value = v; else if (d.set) d.set.call(this, v); },
    });
  };
  return deprecate;
};
`,
    }));
  },
});

// A dependency's large JSON file (mime-db's 190 KB table of media types, which @fastify/compress requires)
// became one JavaScript object literal that each start builds, ~5 ms; JSON.parse of the same text builds
// the same object in about a fifth of that. Small files stay as esbuild makes them.
const LARGE_JSON = 16 * 1024;
const largeJsonParsed = () => ({
  name: "large-json-parsed",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (text.length < LARGE_JSON) return undefined;
      JSON.parse(text); // a file that isn't JSON fails the build here, as esbuild's own loader would
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});`, loader: "js" };
    });
  },
});

/** The plugins, for the server bundle whose compiled sources are in `root`/dist. */
export const bundlePlugins = (root) => [
  lazyProtos(root),
  dynamicRequires(root),
  routerCompilesOnUse(),
  depdWithoutCallSites(),
  largeJsonParsed(),
];

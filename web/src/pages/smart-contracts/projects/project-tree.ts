import type { BuildDiagnostic, TreeNode } from "@/data/projects/types";

/** Every file path in a tree, in tree order. */
export function filePaths(node: TreeNode | undefined): string[] {
  if (!node) return [];
  if (!node.isDir) return [node.path];
  return (node.children ?? []).flatMap(filePaths);
}

/** The file an editor opens first: the contract source if there is one, else the first file. */
export function defaultFile(tree: TreeNode | undefined): string | undefined {
  const files = filePaths(tree);
  const preferred = [/^src\/assetTransfer\.ts$/, /^lib\/assetTransfer\.js$/, /^chaincode\/asset_transfer\.go$/];
  for (const re of preferred) {
    const hit = files.find((f) => re.test(f));
    if (hit) return hit;
  }
  return files.find((f) => /\.(ts|js|go)$/.test(f)) ?? files[0];
}

/** A new file or folder name under `dir`, checked like the server checks it (no `..`, not absolute). */
export function joinPath(dir: string, name: string): string | { error: string } {
  const n = name.trim().replace(/^\/+/, "");
  if (n === "") return { error: "A name is required" };
  if (n.split("/").some((p) => p === ".." || p === ".git")) return { error: `'${name}' may not contain .. or .git` };
  return dir ? `${dir}/${n}` : n;
}

/** Compiler diagnostics from a failed start's error body (`details.diagnostics`). */
export function diagnosticsOf(body: unknown): BuildDiagnostic[] {
  const details = (body as { details?: { diagnostics?: unknown } } | undefined)?.details;
  const list = Array.isArray(details?.diagnostics) ? details.diagnostics : [];
  return list.filter(
    (d): d is BuildDiagnostic =>
      typeof d === "object" &&
      d !== null &&
      typeof (d as BuildDiagnostic).file === "string" &&
      typeof (d as BuildDiagnostic).line === "number",
  );
}

/** The Monaco language of a file by its name. */
export function languageOf(path: string): string {
  const name = path.toLowerCase();
  if (/\.(ts|tsx|mts|cts)$/.test(name)) return "typescript";
  if (/\.(js|jsx|mjs|cjs|json)$/.test(name)) return "javascript";
  if (name.endsWith(".go") || name.endsWith("go.mod")) return "go";
  if (name.endsWith(".md")) return "markdown";
  if (/\.(ya?ml)$/.test(name)) return "yaml";
  return "plaintext";
}

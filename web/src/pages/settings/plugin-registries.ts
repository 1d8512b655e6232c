/** One registry URL per line, as the settings document keeps them (blank lines and spaces dropped). */
export function parseRegistries(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The first line that is not an http(s) URL, for the form's message; null when all are. */
export function invalidRegistry(urls: string[]): string | null {
  return urls.find((u) => !/^https?:\/\/\S+$/.test(u)) ?? null;
}

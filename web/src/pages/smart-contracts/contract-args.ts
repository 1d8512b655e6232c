/**
 * Parses the arguments box: a JSON array (`["0xabc…", "42", true]`), or empty for none. Numbers are
 * kept as strings so big integers survive.
 */
export function parseArgs(text: string): { args: unknown[] } | { error: string } {
  const t = text.trim();
  if (!t) return { args: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(t.replace(/(?<=[[,\s])(-?\d{16,})(?=[\s,\]])/g, '"$1"'));
  } catch {
    return { error: 'Arguments must be a JSON array, e.g. ["0x…", "42"]' };
  }
  if (!Array.isArray(parsed)) return { error: 'Arguments must be a JSON array, e.g. ["0x…", "42"]' };
  return { args: parsed.map((a) => (typeof a === "number" ? String(a) : a)) };
}

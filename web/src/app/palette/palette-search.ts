import Fuse, { type IFuseOptions } from "fuse.js";
import type { PaletteItem } from "@/app/palette/palette-items";

/** Fuzzy search settings of spec §2: label 2, keywords 1, category 0.5, threshold 0.3. */
export const FUSE_OPTIONS: IFuseOptions<PaletteItem> = {
  keys: [
    { name: "label", weight: 2 },
    { name: "keywords", weight: 1 },
    { name: "category", weight: 0.5 },
  ],
  threshold: 0.3,
  ignoreLocation: true,
};

/** Items matching the query, best first; every item (in order) for an empty query. */
export function searchPalette(items: readonly PaletteItem[], query: string): PaletteItem[] {
  const q = query.trim();
  if (!q) return [...items];
  return new Fuse(items, FUSE_OPTIONS).search(q).map((r) => r.item);
}

/** Groups items by category, keeping the order of first appearance. */
export function groupByCategory(items: readonly PaletteItem[]): [string, PaletteItem[]][] {
  const map = new Map<string, PaletteItem[]>();
  for (const i of items) {
    const list = map.get(i.category) ?? [];
    list.push(i);
    map.set(i.category, list);
  }
  return [...map.entries()];
}

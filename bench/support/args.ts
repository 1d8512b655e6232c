import { resolve } from "node:path";

/** The number after `name` on the command line (`--runs 5`), or `dflt` when absent or not a number. */
export function numberArg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) || dflt : dflt;
}

/** The file after `name` on the command line (`--entry ../other/server/bundle/main.js`), absolute; undefined when absent. */
export function pathArg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? resolve(process.argv[i + 1] ?? "") : undefined;
}

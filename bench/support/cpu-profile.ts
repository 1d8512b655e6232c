/**
 * `--profile`: a V8 CPU profile of the measured window of an in-process bench (the console and the
 * bench's client share the thread), written as a `.cpuprofile` next to the bench's results, to
 * open in Chrome DevTools or `npx speedscope`. Profiling the window, not the process, keeps the
 * app's start-up and the fixture's set-up out of it.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

/** Whether the bench was asked for a profile. */
export const profiling = process.argv.includes("--profile");

/**
 * Starts profiling when `--profile` was given; the returned function stops it and writes
 * `file` (returns the path, or null when not profiling).
 */
export async function startProfile(): Promise<(file: string) => Promise<string | null>> {
  if (!profiling) return async () => null;
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 1000 });
  await session.post("Profiler.start");
  return async (file: string) => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}

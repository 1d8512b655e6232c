import { expect, it } from "vitest";
import { startupWatchdog, type StartupWatch } from "./app.js";

// Fastify's per-plugin timeouts are off (app.ts); a start that hangs says what it is still waiting on.
it("says what a start still waits on, at each interval, until it is stopped", async () => {
  const said: { step: string; message: string }[] = [];
  const watch: StartupWatch = {
    step: "the database",
    log: { warn: ((fields: { step: string }, message: string) => said.push({ step: fields.step, message })) as never },
  };
  const until = async (done: () => boolean) => {
    for (const deadline = Date.now() + 10_000; !done();) {
      if (Date.now() > deadline) throw new Error(`the watchdog said ${JSON.stringify(said)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const stop = startupWatchdog(watch, 20);
  await until(() => said.length > 0);
  watch.step = "the onReady hooks";
  await until(() => said.some((s) => s.step === "the onReady hooks"));
  stop();
  const count = said.length;
  await new Promise((r) => setTimeout(r, 100));
  expect(said.length).toBe(count);
  expect(said[0]).toEqual({
    step: "the database",
    message: expect.stringMatching(/^start-up: still waiting on the database after \d+ s$/) as string,
  });
  expect(said.every((s) => s.step === "the database" || s.step === "the onReady hooks")).toBe(true);
});

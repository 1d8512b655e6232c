import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus, type BusEvent } from "../../events/bus.js";
import { createTestApp, dialects, type TestApp } from "../../test-support/test-app.js";
import { settingConfig, type SettingConfig } from "../settings/settings.schema.js";
import { createAlertEngine, type AlertRule, type Condition } from "./alerts.engine.js";
import { createAlertsRepo } from "./alerts.repo.js";

const MIN = 60_000;
const silent = { warn: () => undefined };

/**
 * A rule whose conditions the test sets between cycles, with a 5-minute `for` (or none), and an
 * engine on a manual clock over the real repository: what a restart would reload is what the
 * database holds.
 */
function harness(t: TestApp, ruleId: string, opts: { forMs?: number; resolve?: boolean; exhaustive?: boolean } = {}) {
  let now = Date.parse("2026-01-01T00:00:00Z");
  let conditions: Condition[] = [];
  const events: BusEvent[] = [];
  const bus = createEventBus(() => undefined);
  bus.subscribe((e) => void events.push(e));
  const settings: SettingConfig = settingConfig.parse({ alertCooldownMinutes: 60 });
  const rule: AlertRule = {
    id: ruleId,
    event: "peer.lagging",
    ...(opts.resolve === false ? {} : { resolveEvent: "peer.caught_up" as const }),
    forMs: () => opts.forMs ?? 5 * MIN,
    ...(opts.exhaustive ? { exhaustive: true } : {}),
    evaluate: async () => conditions,
  };
  const repo = createAlertsRepo(t.database.db);
  const newEngine = () =>
    createAlertEngine({
      repo: repo.states,
      bus,
      rules: [rule],
      settings: { get: async () => ({ config: settings }) },
      log: silent,
      clock: () => new Date(now),
    });
  let engine = newEngine();
  const cond = (active: boolean, key = "a", extra: Record<string, unknown> = {}): Condition => ({
    key,
    subject: `subject ${key}`,
    active,
    data: { key, ...extra },
  });
  return {
    events,
    settings,
    set(...c: Condition[]) {
      conditions = c;
    },
    cond,
    advance(ms: number) {
      now += ms;
    },
    cycle: () => engine.evaluate(),
    /** A console restart: a new engine that knows only what the database holds. */
    restart() {
      engine = newEngine();
    },
    types: () => events.map((e) => e.type),
    states: async () => (await repo.states.forRule(ruleId)).map((r) => [r.alert_key, r.status]),
  };
}

describe.each(dialects())("alert engine on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("waits out the rule's duration, then fires once however many cycles the condition lasts", async () => {
    const h = harness(t, "test.for");
    h.set(h.cond(true));
    await h.cycle();
    expect(await h.states()).toEqual([["a", "pending"]]);
    h.advance(4 * MIN);
    await h.cycle();
    expect(h.events).toEqual([]);
    h.advance(MIN);
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging"]);
    for (let i = 0; i < 20; i++) {
      h.advance(MIN);
      await h.cycle();
    }
    expect(h.types()).toEqual(["peer.lagging"]);
    expect(h.events[0]?.data).toEqual({ key: "a" });
  });

  it("forgets a condition that clears before its duration, without any event", async () => {
    const h = harness(t, "test.blip");
    h.set(h.cond(true));
    await h.cycle();
    h.advance(2 * MIN);
    h.set(h.cond(false));
    await h.cycle();
    // Starting again counts from zero.
    h.set(h.cond(true));
    h.advance(MIN);
    await h.cycle();
    h.advance(4 * MIN);
    await h.cycle();
    expect(h.events).toEqual([]);
    expect(await h.states()).toEqual([["a", "pending"]]);
  });

  it("announces the resolution with the current data, and only for a notified episode", async () => {
    const h = harness(t, "test.resolve", { forMs: 0 });
    h.set(h.cond(true, "a", { lag: 20 }));
    await h.cycle();
    h.advance(MIN);
    h.set(h.cond(false, "a", { lag: 0 }));
    await h.cycle();
    expect(h.events.map((e) => [e.type, e.data.lag])).toEqual([
      ["peer.lagging", 20],
      ["peer.caught_up", 0],
    ]);
    expect(await h.states()).toEqual([["a", "resolved"]]);
  });

  it("keeps a condition that flaps back within the cool-down quiet, and sends it again after", async () => {
    const h = harness(t, "test.cooldown", { forMs: 0 });
    h.set(h.cond(true));
    await h.cycle();
    h.advance(10 * MIN);
    h.set(h.cond(false));
    await h.cycle();
    h.advance(10 * MIN);
    h.set(h.cond(true));
    await h.cycle();
    // Fired again 20 minutes after the last notification: held back, and so is its resolution.
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up"]);
    expect(await h.states()).toEqual([["a", "firing"]]);
    h.advance(10 * MIN);
    h.set(h.cond(false));
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up"]);
    // Past the hour since the notification, the state is dropped, and a new episode is sent.
    h.advance(45 * MIN);
    await h.cycle();
    expect(await h.states()).toEqual([]);
    h.set(h.cond(true));
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up", "peer.lagging"]);
  });

  it("sends a held-back episode that is still going when the cool-down ends", async () => {
    const h = harness(t, "test.cooldown-long", { forMs: 0 });
    h.set(h.cond(true));
    await h.cycle();
    h.advance(5 * MIN);
    h.set(h.cond(false));
    await h.cycle();
    h.advance(5 * MIN);
    h.set(h.cond(true));
    await h.cycle();
    h.advance(30 * MIN);
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up"]);
    // An hour after the first notification it is still lagging: the user last heard "caught up".
    h.advance(25 * MIN);
    await h.cycle();
    h.advance(MIN);
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up", "peer.lagging"]);
    h.set(h.cond(false));
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.caught_up", "peer.lagging", "peer.caught_up"]);
  });

  it("keeps each key's episode apart", async () => {
    const h = harness(t, "test.keys", { forMs: 0 });
    h.set(h.cond(true, "a"), h.cond(false, "b"));
    await h.cycle();
    h.set(h.cond(true, "a"), h.cond(true, "b"));
    await h.cycle();
    await h.cycle();
    expect(h.events.map((e) => e.data.key)).toEqual(["a", "b"]);
  });

  it("neither re-fires nor forgets an episode over a restart, and keeps a pending duration going", async () => {
    const h = harness(t, "test.restart");
    h.set(h.cond(true, "firing"), h.cond(true, "pending"));
    await h.cycle();
    h.advance(5 * MIN);
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.lagging"]);
    h.set(h.cond(true, "firing"), h.cond(true, "pending"), h.cond(true, "late"));
    h.advance(MIN);
    await h.cycle();
    h.restart();
    h.advance(2 * MIN);
    await h.cycle();
    expect(h.types()).toEqual(["peer.lagging", "peer.lagging"]);
    // "late" became active 2 minutes before the restart: 3 more minutes and it fires.
    h.advance(3 * MIN);
    await h.cycle();
    expect(h.events.map((e) => e.data.key)).toEqual(["firing", "pending", "late"]);
    h.restart();
    h.set(h.cond(false, "firing"), h.cond(true, "pending"), h.cond(true, "late"));
    await h.cycle();
    expect(h.events.at(-1)).toMatchObject({ type: "peer.caught_up", data: { key: "firing" } });
  });

  it("keeps the state of a subject missing from a cycle, unless the rule reports every subject", async () => {
    const partial = harness(t, "test.partial", { forMs: 0 });
    partial.set(partial.cond(true));
    await partial.cycle();
    partial.set();
    await partial.cycle();
    partial.set(partial.cond(true));
    await partial.cycle();
    expect(partial.types()).toEqual(["peer.lagging"]);
    expect(await partial.states()).toEqual([["a", "firing"]]);
    // A pending condition that is unknown for a cycle starts its duration again.
    const gap = harness(t, "test.gap");
    gap.set(gap.cond(true));
    await gap.cycle();
    gap.advance(3 * MIN);
    gap.set();
    await gap.cycle();
    gap.advance(3 * MIN);
    gap.set(gap.cond(true));
    await gap.cycle();
    expect(gap.types()).toEqual([]);
    expect(await gap.states()).toEqual([["a", "pending"]]);
    // Unknown for more than a day: its subject is most likely gone, and the state goes quietly.
    partial.set();
    partial.advance(25 * 60 * MIN);
    await partial.cycle();
    expect(await partial.states()).toEqual([]);
    expect(partial.types()).toEqual(["peer.lagging"]);

    const whole = harness(t, "test.whole", { forMs: 0, exhaustive: true, resolve: false });
    whole.set(whole.cond(true));
    await whole.cycle();
    whole.set();
    await whole.cycle();
    expect(await whole.states()).toEqual([]);
    expect(whole.types()).toEqual(["peer.lagging"]);
  });
});

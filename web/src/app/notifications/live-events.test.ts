import { describe, expect, it, vi } from "vitest";
import { createLiveEventHub } from "@/app/notifications/live-events";

describe("live event hub", () => {
  it("delivers events to listeners of their type until they unsubscribe", () => {
    const hub = createLiveEventHub();
    const a = vi.fn();
    const b = vi.fn();
    const offA = hub.subscribe("x.progress", a);
    hub.subscribe("y", b);
    const e = { type: "x.progress", data: { n: 1 }, timestamp: "t" };
    hub.emit(e);
    expect(a).toHaveBeenCalledWith(e);
    expect(b).not.toHaveBeenCalled();
    offA();
    hub.emit(e);
    expect(a).toHaveBeenCalledTimes(1);
  });

  it("keeps delivering when one listener throws", () => {
    const hub = createLiveEventHub();
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const ok = vi.fn();
    hub.subscribe("t", () => {
      throw new Error("boom");
    });
    hub.subscribe("t", ok);
    hub.emit({ type: "t", data: null, timestamp: "" });
    expect(ok).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

import { describe, expect, it } from "vitest";
import { createCredentialCache } from "./credential-cache.js";

describe("verified Basic credentials cache", () => {
  it("hits only for the same username, password and stored hash, until the TTL", () => {
    let t = 1000;
    const c = createCredentialCache({ ttlMs: 60_000, now: () => t });
    expect(c.has("alice", "pw", "h1")).toBe(false);
    c.add("alice", "pw", "h1");
    expect(c.has("alice", "pw", "h1")).toBe(true);
    expect(c.has("alice", "other", "h1")).toBe(false);
    expect(c.has("alice", "pw", "h2")).toBe(false); // password changed
    expect(c.has("bob", "pw", "h1")).toBe(false);
    t += 59_999;
    expect(c.has("alice", "pw", "h1")).toBe(true);
    t += 1;
    expect(c.has("alice", "pw", "h1")).toBe(false);
    expect(c.size).toBe(0);
  });

  it("keeps at most `max` entries, dropping the oldest", () => {
    const c = createCredentialCache({ max: 2 });
    c.add("a", "1", "h");
    c.add("b", "2", "h");
    c.add("c", "3", "h");
    expect(c.size).toBe(2);
    expect(c.has("a", "1", "h")).toBe(false);
    expect(c.has("b", "2", "h")).toBe(true);
    expect(c.has("c", "3", "h")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { federationKeys } from "@/data/federation/keys";
import { MetricsFederationCard } from "@/pages/connect/MetricsFederationCard";
import { metricsRefusal, parseUp } from "@/pages/connect/metrics-federation-view";
import { peerB } from "@/test-support/federation-fixtures";
import { asRole, failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

const upKey = federationKeys.connectionMetrics("cl-bbbb", "up");
const upAnswer = {
  status: "success",
  data: {
    resultType: "vector",
    result: [
      { metric: { __name__: "up", job: "peer0-org2", instance: "10.0.0.2:9443" }, value: [1, "0"] },
      { metric: { __name__: "up", job: "besu-1", instance: "10.0.0.3:9545" }, value: [1, "1"] },
    ],
  },
};

const card = (peer: typeof peerB, ...seeds: Seed[]): string =>
  screenText(<MetricsFederationCard peer={peer} />, "/", "/", ...seeds);

describe("metrics federation view", () => {
  it("reads the targets of an up query, sorted, and nothing from other shapes", () => {
    expect(parseUp(upAnswer)).toEqual([
      { job: "besu-1", instance: "10.0.0.3:9545", up: true },
      { job: "peer0-org2", instance: "10.0.0.2:9443", up: false },
    ]);
    expect(parseUp({ status: "success", data: { resultType: "scalar", result: [1, "1"] } })).toEqual([]);
    expect(parseUp({ status: "error" })).toEqual([]);
    expect(parseUp(undefined)).toEqual([]);
  });

  it("tells a refusal by the other console from other failures", () => {
    const refused = {
      error: "FORBIDDEN",
      message: "cl-bbbb refused",
      details: { reason: "metrics_federation_not_granted" },
    };
    expect(metricsRefusal(new ApiError(403, "FORBIDDEN", "cl-bbbb refused", refused))).toBe("not-granted");
    expect(metricsRefusal(new ApiError(403, "FORBIDDEN", "this console does not grant metrics"))).toBe("not-granted");
    expect(metricsRefusal(new ApiError(403, "FORBIDDEN", "your role does not allow this"))).toBeUndefined();
    expect(metricsRefusal(new ApiError(502, "BAD_GATEWAY", "unreachable"))).toBe("unreachable");
    expect(metricsRefusal(new ApiError(500, "INTERNAL", "x"))).toBeUndefined();
    expect(metricsRefusal(new Error("x"))).toBeUndefined();
  });
});

describe("Metrics federation card", () => {
  it("shows the grant as a switch operators can use and viewers can only read", () => {
    const admin = screenHtml(<MetricsFederationCard peer={peerB} />, "/", "/", asRole("admin"));
    expect(admin).toMatch(/role="switch" aria-checked="false"/);
    expect(admin).not.toMatch(/role="switch"[^>]*disabled=""/);
    expect(card(peerB, asRole("admin"))).toContain("Share this console's metrics with this console");
    const viewer = screenHtml(
      <MetricsFederationCard peer={{ ...peerB, metrics_federation: true }} />,
      "/",
      "/",
      asRole("viewer"),
    );
    expect(viewer).toMatch(/role="switch" aria-checked="true"[^>]*disabled=""/);
  });

  it("says what the other console last said about granting us", () => {
    expect(card({ ...peerB, peer_grants_metrics: true })).toContain("It grants this console read access");
    expect(card({ ...peerB, peer_grants_metrics: false })).toContain("It has not granted this console access");
    expect(card(peerB)).toContain("not known yet");
  });

  it("lists their targets up and down", () => {
    const text = card(peerB, asRole("viewer"), seed(upKey, upAnswer));
    expect(text).toContain("peer0-org2");
    expect(text).toContain("10.0.0.3:9545");
    expect(text).toContain("Up");
    expect(text).toContain("Down");
  });

  it("explains a refusal, an unreachable console, no targets and other errors", () => {
    expect(card(peerB, failing(upKey, new ApiError(403, "FORBIDDEN", "metrics federation not granted")))).toContain(
      "Not granted",
    );
    expect(card(peerB, failing(upKey, new ApiError(502, "BAD_GATEWAY", "cl-bbbb did not answer")))).toContain(
      "cl-bbbb did not answer",
    );
    expect(card(peerB, seed(upKey, { status: "success", data: { resultType: "vector", result: [] } }))).toContain(
      "No targets",
    );
    expect(card(peerB, failing(upKey))).toContain("database is locked");
    expect(card(peerB)).toContain("Loading");
  });

  it("asks nothing of a revoked connection and disables the switch", () => {
    const revoked = { ...peerB, status: "revoked" as const };
    expect(card(revoked, asRole("admin"))).toContain("This connection is revoked");
    expect(screenHtml(<MetricsFederationCard peer={revoked} />, "/", "/", asRole("admin"))).toMatch(
      /role="switch"[^>]*disabled=""/,
    );
  });
});

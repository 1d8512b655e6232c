import { describe, expect, it } from "vitest";
import { ALERT_FIELDS, optionalWhole, whole } from "@/pages/settings/alert-fields";

describe("alert settings fields", () => {
  it("has one field per alert setting, each with messages that name it", () => {
    expect(ALERT_FIELDS.map((f) => f.name)).toEqual([
      "alertEvaluationInterval",
      "alertCooldownMinutes",
      "alertCertExpiryDays",
      "alertPeerLagBlocks",
      "alertPeerLagMinutes",
      "alertRaftMinutes",
      "nodeDowntimeGraceSeconds",
    ]);
    for (const f of ALERT_FIELDS) {
      const subject = f.label.replace(/ \(.*\)$/, "");
      const messages = JSON.stringify(f.rules);
      expect(messages).toContain(f.optional ? `${subject} must be` : `${subject} is required`);
    }
  });

  it("lets the downtime grace be left empty (the server's default applies), but not be a fraction", () => {
    const r = optionalWhole("Node downtime grace", 0, 3600, "seconds");
    const validate = r.validate as (v: unknown) => true | string;
    expect(validate("")).toBe(true);
    expect(validate("45")).toBe(true);
    expect(validate("1.5")).toBe("Node downtime grace must be a whole number of seconds from 0 to 3600");
    expect(r.required).toBeUndefined();
  });

  it("refuses fractions and values out of the server's range, naming the field", () => {
    const r = whole("Peer lag threshold", 1, 1000000, "blocks");
    const message = "Peer lag threshold must be a whole number of blocks from 1 to 1000000";
    expect(r.min).toEqual({ value: 1, message });
    expect(r.max).toEqual({ value: 1000000, message });
    const validate = r.validate as (v: unknown) => true | string;
    expect(validate(2.5)).toBe(message);
    expect(validate("12")).toBe(true);
  });

  it("wants a duration for the interval", () => {
    const interval = ALERT_FIELDS[0]!.rules!.pattern as { value: RegExp; message: string };
    expect(interval.value.test("30s")).toBe(true);
    expect(interval.value.test("soon")).toBe(false);
    expect(interval.message).toMatch(/^Alert evaluation interval/);
  });
});

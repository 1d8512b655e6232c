import { describe, expect, it } from "vitest";
import type { NotificationProvider } from "@/data/notification-providers/keys";
import { bodyFrom, fieldOf, flagsSummary, formFrom, parseHeaders } from "@/pages/monitoring/provider-form";

const stored: NotificationProvider = {
  id: 3,
  name: "hook",
  type: "WEBHOOK",
  config: {
    url: "https://h.example.com/x",
    secret: "********",
    headers: { Authorization: "********" },
    skip_tls_verify: false,
    ca_cert: "",
  },
  isDefault: false,
  notifyNodeDowntime: true,
  notifyBackupSuccess: false,
  notifyBackupFailure: true,
  notifyS3ConnIssue: false,
  notifyCertExpiry: false,
  notifyPeerLag: false,
  notifyRaftHealth: false,
  lastTestAt: null,
  lastTestStatus: null,
  lastTestMessage: null,
  createdAt: "",
  updatedAt: "",
};

describe("provider form", () => {
  it("leaves secrets out of the body when their fields are empty, so the server keeps them", () => {
    const body = bodyFrom(formFrom(stored));
    expect(body.config).toEqual({
      url: "https://h.example.com/x",
      headers: { Authorization: "********" },
      ca_cert: "",
      skip_tls_verify: false,
    });
    expect(body).toMatchObject({ notifyNodeDowntime: true, notifyBackupFailure: true, notifyRaftHealth: false });
    const smtp = bodyFrom({
      ...formFrom(),
      host: "smtp.example.com",
      password: "pw",
      fromEmail: "a@b.c",
      toEmail: "d@e.f",
    });
    expect(smtp.config).toMatchObject({
      host: "smtp.example.com",
      port: 587,
      password: "pw",
      use_tls: true,
      from_name: "ChainLaunch",
    });
  });

  it("reads header lines and maps server messages to fields", () => {
    expect(parseHeaders("Authorization: Bearer a:b\n\nX-Team: ops")).toEqual({
      Authorization: "Bearer a:b",
      "X-Team": "ops",
    });
    expect(fieldOf("config.host: is required")).toBe("host");
    expect(fieldOf("config.to_email: must be an email address")).toBe("toEmail");
    expect(fieldOf("config.headers.X-Foo: bad")).toBe("headers");
    expect(fieldOf("name: a notification provider named 'x' already exists")).toBe("name");
    expect(fieldOf("something else")).toBeUndefined();
    expect(flagsSummary(stored)).toBe("Node down / recovered, Backup failed");
  });
});

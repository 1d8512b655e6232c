import type { ReactElement } from "react";
import { useForm, type FieldErrors } from "react-hook-form";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Dialog } from "@/components/ui/dialog";
import { dockerEngineKeys } from "@/data/docker-engines/keys";
import type { DockerEngine } from "@/data/docker-engines/types";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  ENGINE_FORM_EMPTY,
  ENGINE_FORM_FIELDS,
  toCreateEngineBody,
  validateEngineHost,
  validateEngineName,
  validateTls,
  type EngineFormValues,
} from "@/pages/settings/docker-engines/engine-form";
import { EngineRegisterForm } from "@/pages/settings/docker-engines/EngineRegisterDialog";
import { asRole, failing, screenHtml, screenText, seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { createDockerEngine } = await import("@/data/docker-engines/docker-engine-create-mutation");
const { deleteDockerEngine } = await import("@/data/docker-engines/docker-engine-delete-mutation");
const { DockerEnginesPage } = await import("@/pages/settings/DockerEnginesPage");

beforeEach(() => http.reset());

const route = "/settings/docker-engines";
const local: DockerEngine = {
  id: 0,
  name: "local",
  host: "unix:///var/run/docker.sock",
  tls: false,
  local: true,
  status: "up",
  version: "27.1.1",
};
const rackB: DockerEngine = {
  id: 2,
  name: "rack-b",
  host: "tcp://10.0.0.7:2376",
  tls: true,
  local: false,
  status: "down",
  error: "connect ECONNREFUSED 10.0.0.7:2376",
  created_at: "2026-01-01T00:00:00Z",
};
const page = <DockerEnginesPage />;
const engines = seed(dockerEngineKeys.list(), [local, rackB]);

describe("Docker engines page", () => {
  it("lists each engine with its host, TLS and status", () => {
    const text = screenText(page, route, route, asRole("viewer"), engines);
    expect(text).toContain("Docker engines");
    expect(text).toMatch(/local This console unix:\/\/\/var\/run\/docker\.sock No Up Docker 27\.1\.1/);
    expect(text).toMatch(/rack-b tcp:\/\/10\.0\.0\.7:2376 Yes Down connect ECONNREFUSED 10\.0\.0\.7:2376/);
    // Named, so a test (or a screen reader) finds it by its role.
    expect(screenHtml(page, route, route, asRole("viewer"), engines)).toMatch(
      /<table [^>]*aria-label="Docker engines"/,
    );
  });

  it("gives an admin Register engine and Remove for registered engines, not for the local one", () => {
    const text = screenText(page, route, route, asRole("admin"), engines);
    expect(text).toContain("Register engine");
    expect(text).toContain("Remove rack-b");
    expect(text).not.toContain("Remove local");
  });

  for (const role of ["viewer", "manager"] as const) {
    it(`shows a ${role} the list without the controls`, () => {
      const text = screenText(page, route, route, asRole(role), engines);
      expect(text).toContain("rack-b");
      expect(text).not.toContain("Register engine");
      expect(text).not.toContain("Remove");
    });
  }

  it("renders its empty and error states, and is a settings tab", () => {
    expect(screenText(page, route, route, asRole("admin"), seed(dockerEngineKeys.list(), []))).toContain(
      "No Docker engines",
    );
    expect(screenText(page, route, route, asRole("admin"), failing(dockerEngineKeys.list()))).toContain("Try again");
    expect(screenHtml(page, route, route, asRole("admin"), engines)).toMatch(
      /<a[^>]*aria-current="page"[^>]*href="\/settings\/docker-engines"|<a[^>]*href="\/settings\/docker-engines"[^>]*aria-current="page"/,
    );
  });
});

describe("Docker engines: register", () => {
  it("sends TLS only when its fields are filled", async () => {
    const plain = { ...ENGINE_FORM_EMPTY, name: " rack-b ", host: "tcp://10.0.0.7:2375" };
    expect(toCreateEngineBody(plain)).toEqual({ name: "rack-b", host: "tcp://10.0.0.7:2375" });
    const tls = { ...plain, ca: "CA\n", cert: "CERT", key: "KEY" };
    expect(toCreateEngineBody(tls)).toEqual({
      name: "rack-b",
      host: "tcp://10.0.0.7:2375",
      tls: { ca: "CA", cert: "CERT", key: "KEY" },
    });

    http.respond("POST", "/docker/engines", 201, { ...rackB, status: "up" });
    await expect(createDockerEngine(toCreateEngineBody(tls))).resolves.toMatchObject({ id: 2 });
    expect(http.calls[0]).toMatchObject({ method: "POST", path: "/docker/engines" });
    expect(http.calls[0]?.body).toEqual({
      name: "rack-b",
      host: "tcp://10.0.0.7:2375",
      tls: { ca: "CA", cert: "CERT", key: "KEY" },
    });
  });

  it("checks the name, host and TLS fields before asking the server", () => {
    expect(validateEngineName("rack_b-2")).toBe(true);
    expect(validateEngineName("Rack B")).toMatch(/Lowercase/);
    expect(validateEngineName("local")).toMatch(/console's own engine/);
    expect(validateEngineHost("unix:///var/run/docker.sock")).toBe(true);
    expect(validateEngineHost("tcp://10.0.0.7:2376")).toBe(true);
    expect(validateEngineHost("10.0.0.7:2376")).toMatch(/tcp:\/\/host:port/);
    expect(validateTls({ ...ENGINE_FORM_EMPTY, ca: "CA" })).toMatch(/together/);
    expect(validateTls({ ...ENGINE_FORM_EMPTY, ca: "CA", cert: "C", key: "K" })).toBe(true);
  });

  it("puts the server's 400 and 409 on the field they name", async () => {
    const answers: [number, string, keyof EngineFormValues][] = [
      [400, "host: the Docker engine at tcp://10.0.0.7:2376 does not answer (connect ECONNREFUSED)", "host"],
      [409, "name: an engine named 'rack-b' exists", "name"],
      [400, "tls.key: not a PEM private key", "key"],
      [400, "tls: the client certificate does not match the key", "ca"],
    ];
    for (const [status, message, field] of answers) {
      http.respond("POST", "/docker/engines", status, { error: "INVALID_INPUT", message, requestId: "r" });
      const err = await createDockerEngine({ name: "rack-b", host: "tcp://10.0.0.7:2376" }).catch((e: unknown) => e);
      expect(formErrorsFrom(err, ENGINE_FORM_FIELDS)).toEqual({ [field]: message.replace(/^[\w.]+: /, "") });
    }
  });

  it("shows a field error under its field", () => {
    function Form({ errors }: { errors: FieldErrors<EngineFormValues> }): ReactElement {
      const form = useForm<EngineFormValues>({ defaultValues: ENGINE_FORM_EMPTY, errors });
      return (
        <Dialog>
          <EngineRegisterForm
            form={form}
            submitting={false}
            onSubmit={() => Promise.resolve()}
            onCancel={() => undefined}
          />
        </Dialog>
      );
    }
    const html = screenHtml(
      <Form errors={{ host: { type: "server", message: "the Docker engine does not answer" } }} />,
      route,
      route,
    );
    expect(html).toMatch(/<input(?=[^>]*id="engine-host")(?=[^>]*aria-invalid="true")[^>]*>/);
    expect(html).toMatch(/id="engine-host"[^>]*\/>.*?role="alert"[^>]*>the Docker engine does not answer</s);
    for (const label of ["Name", "Host", "TLS CA certificate", "Client certificate", "Client key"]) {
      expect(html).toContain(`>${label}</label>`);
    }
  });
});

describe("Docker engines: remove", () => {
  it("deletes by id, and a refusal carries the server's message for the dialog", async () => {
    http.respond("DELETE", "/docker/engines/2", 204, null);
    await deleteDockerEngine(2);
    expect(http.calls[0]).toMatchObject({ method: "DELETE", path: "/docker/engines/2" });

    const message = "id: engine 'rack-b' runs node 'peer0-org1'; delete that first";
    http.respond("DELETE", "/docker/engines/2", 409, { error: "CONFLICT", message, requestId: "r" });
    await expect(deleteDockerEngine(2)).rejects.toMatchObject({ status: 409, message });
  });
});

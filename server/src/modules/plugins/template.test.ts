import { describe, expect, it } from "vitest";
import { parseTemplate, renderTemplate, templateFields, type TemplateError } from "./template.js";

const data = {
  parameters: {
    port: 8080,
    name: "gw",
    key: { MspID: "Org1MSP", CertPath: "/etc/chainlaunch/key/cert.pem" },
    peers: [
      { ExternalEndpoint: "peer0:7051", TLSCACertPath: "/a.pem" },
      { ExternalEndpoint: "peer1:7051", TLSCACertPath: "/b.pem" },
    ],
    empty: [],
    on: true,
  },
  volumeMounts: [
    { Source: "/data/k", Target: "/etc/k", ReadOnly: true },
    { Source: "/data/w", Target: "/w", ReadOnly: false },
  ],
};

describe("plugin templates (Go text/template subset)", () => {
  it("prints fields, numbers and missing values", () => {
    expect(renderTemplate("--port={{ .parameters.port }} --msp={{.parameters.key.MspID}}", data)).toBe(
      "--port=8080 --msp=Org1MSP",
    );
    expect(renderTemplate("[{{ .parameters.nothing.here }}]", data)).toBe("[]");
    expect(renderTemplate("no actions", data)).toBe("no actions");
  });

  it("ranges with index and value variables and trims whitespace like Go", () => {
    const src =
      "--peers={{- range $i, $peer := .parameters.peers }}{{if $i}},{{end}}{{$peer.ExternalEndpoint}}{{- end }}";
    expect(renderTemplate(src, data)).toBe("--peers=peer0:7051,peer1:7051");
    const vols =
      "volumes:\n  {{- range .volumeMounts }}\n  - {{ .Source }}:{{ .Target }}:{{ if .ReadOnly }}ro{{ else }}rw{{ end }}\n  {{- end }}\n";
    expect(renderTemplate(vols, data)).toBe("volumes:\n  - /data/k:/etc/k:ro\n  - /data/w:/w:rw\n");
    expect(renderTemplate("{{ range .parameters.empty }}x{{ else }}none{{ end }}", data)).toBe("none");
  });

  it("supports if/else if, with, comments, pipelines and functions", () => {
    expect(
      renderTemplate('{{ if eq .parameters.name "x" }}a{{ else if .parameters.on }}b{{ else }}c{{ end }}', data),
    ).toBe("b");
    expect(renderTemplate("{{ with .parameters.key }}{{ .MspID }}{{ end }}", data)).toBe("Org1MSP");
    expect(renderTemplate("{{/* a comment */}}ok", data)).toBe("ok");
    expect(renderTemplate("{{ .parameters.name | quote }}", data)).toBe('"gw"');
    expect(renderTemplate('{{ .parameters.missing | default "dflt" }}', data)).toBe("dflt");
    expect(renderTemplate("{{ len .parameters.peers }} {{ (index .parameters.peers 1).ExternalEndpoint }}", data)).toBe(
      "2 peer1:7051",
    );
    expect(renderTemplate("{{ .parameters.key | toJson }}", data)).toBe(JSON.stringify(data.parameters.key));
  });

  it("reports errors with the line and column of the action", () => {
    const bad = (src: string): TemplateError => {
      try {
        parseTemplate(src);
      } catch (e) {
        return e as TemplateError;
      }
      throw new Error("no error");
    };
    expect(bad("a\n  {{ if .x }}b").message).toBe("line 2, column 3: {{if}} has no matching {{end}}");
    expect(bad("{{ .x ").message).toMatch(/^line 1, column 1: unclosed action/);
    expect(bad("x {{ nosuch .y }}").message).toBe('line 1, column 3: function "nosuch" not defined');
    expect(bad("{{ end }}").message).toMatch(/unexpected \{\{end\}\}/);
  });

  it("lists the root fields a template reads, not those inside range bodies", () => {
    expect(
      templateFields("{{ .parameters.port }} {{ range .parameters.peers }}{{ .Name }}{{ $.runtime.node }}{{ end }}"),
    ).toEqual([
      ["parameters", "port"],
      ["parameters", "peers"],
      ["runtime", "node"],
    ]);
  });
});

import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Our own chaincode-as-a-service external builder: three small POSIX sh programs the peer runs
 * (Fabric's external builder contract: bin/detect, bin/build, bin/release under the builder path).
 * - detect SRC META: accepts a package whose metadata.json says "type": "ccaas" (any case).
 * - build SRC META OUT: copies connection.json, META-INF (CouchDB indexes) and metadata.json to OUT.
 * - release OUT REL: copies connection.json to REL/chaincode/server/, where the peer reads the
 *   chaincode server address, and META-INF/statedb to REL/statedb.
 * Unlike Fabric's Go builder they do not expand templates from CHAINCODE_AS_A_SERVICE_BUILDER_CONFIG:
 * connection.json is used as packaged.
 */
export const CCAAS_BUILDER_SCRIPTS = {
  detect: `#!/bin/sh
# ChainLaunch ccaas builder: detect CHAINCODE_SOURCE_DIR CHAINCODE_METADATA_DIR
set -eu
if [ "$#" -lt 2 ]; then echo "detect: expected 2 arguments, got $#" >&2; exit 2; fi
meta="$2/metadata.json"
if [ ! -f "$meta" ]; then echo "detect: $meta not found" >&2; exit 1; fi
if tr -d ' \\t\\r\\n' < "$meta" | grep -qi '"type":"ccaas"'; then exit 0; fi
echo "detect: $meta does not declare type ccaas" >&2
exit 1
`,
  build: `#!/bin/sh
# ChainLaunch ccaas builder: build CHAINCODE_SOURCE_DIR CHAINCODE_METADATA_DIR BUILD_OUTPUT_DIR
set -eu
if [ "$#" -lt 3 ]; then echo "build: expected 3 arguments, got $#" >&2; exit 2; fi
src="$1"; meta="$2"; out="$3"
if [ ! -f "$src/connection.json" ]; then echo "build: $src/connection.json not found" >&2; exit 1; fi
mkdir -p "$out"
cp "$src/connection.json" "$out/connection.json"
if [ -d "$src/META-INF" ]; then cp -R "$src/META-INF" "$out/"; fi
if [ -f "$meta/metadata.json" ]; then cp "$meta/metadata.json" "$out/metadata.json"; fi
exit 0
`,
  release: `#!/bin/sh
# ChainLaunch ccaas builder: release BUILD_OUTPUT_DIR RELEASE_OUTPUT_DIR
set -eu
if [ "$#" -lt 2 ]; then echo "release: expected 2 arguments, got $#" >&2; exit 2; fi
out="$1"; rel="$2"
if [ ! -f "$out/connection.json" ]; then echo "release: $out/connection.json not found" >&2; exit 1; fi
mkdir -p "$rel/chaincode/server"
cp "$out/connection.json" "$rel/chaincode/server/connection.json"
if [ -d "$out/META-INF/statedb" ]; then mkdir -p "$rel/statedb"; cp -R "$out/META-INF/statedb/." "$rel/statedb/"; fi
exit 0
`,
} as const;

/** The builder name we register in core.yaml. */
export const CCAAS_BUILDER_NAME = "chainlaunch-ccaas";

/**
 * Writes bin/detect, bin/build and bin/release (0755) under `dir`, each as *.tmp then renamed.
 * @returns `dir`, the value for an externalBuilders entry's `path`.
 */
export async function writeCcaasBuilder(dir: string): Promise<string> {
  const bin = join(dir, "bin");
  // Three small scripts on the local disk: synchronous writes (see writeLocalMsp).
  mkdirSync(bin, { recursive: true });
  for (const [name, content] of Object.entries(CCAAS_BUILDER_SCRIPTS)) {
    const target = join(bin, name);
    writeFileSync(`${target}.tmp`, content, { mode: 0o755 });
    chmodSync(`${target}.tmp`, 0o755);
    renameSync(`${target}.tmp`, target);
  }
  return dir;
}

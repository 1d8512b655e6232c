export {
  assertFabricVersion,
  BUILDABLE_FABRIC_VERSIONS,
  createFabricBinaryResolver,
  DEFAULT_FABRIC_VERSION,
  defaultFabricCacheDir,
  downloadFabricRelease,
  execVersionProbe,
  FABRIC_BINARIES,
  fabricReleaseUrl,
  runFile,
  type FabricBinary,
  type FabricBinaryResolver,
  type FabricBinaryResolverOptions,
  type FabricBinarySource,
  type FabricDownloader,
  type FabricVersionProbe,
  type ResolvedFabricBinaries,
} from "./binaries.js";
export { RuntimeError, type RuntimeErrorCode } from "./errors.js";
export {
  allProbes,
  getHealthz,
  httpHealthProbe,
  tcpConnects,
  tcpProbe,
  type HealthzResult,
  type ReadinessProbe,
} from "./health.js";
export {
  DEFAULT_LOG_ROTATION,
  followLog,
  readLastLines,
  rotateIfNeeded,
  type LogFollower,
  type LogRotation,
} from "./log-files.js";
export { scanLines, tailLines, withLogFile, type LogLine, type OpenLog } from "./log-lines.js";
export { readPidRecord, verifyPidRecord, type PidRecord, type PidVerdict } from "./pid-file.js";
export {
  bindTest,
  checkPort,
  checkPorts,
  DEFAULT_BIND_HOSTS,
  isValidPort,
  proposeFabricNodePorts,
  proposeFreePorts,
  searchRange,
  type PortRange,
  type FabricNodePorts,
  type PortCheckOptions,
  type PortConflict,
  type PortConflictReason,
  type ProposePortsOptions,
} from "./ports.js";
export {
  createSupervisor,
  minimalEnv,
  type ProcessSpec,
  type ProcessState,
  type ProcessStatus,
  type RestartPolicy,
  type Supervisor,
  type SupervisorEvent,
  type SupervisorOptions,
} from "./supervisor.js";
export { findExecutable } from "./tools.js";

import { createPluginDefinitions } from "./plugins.define.js";
import { createPluginDeploy } from "./plugins.deploy.js";
import { createPluginInspect } from "./plugins.inspect.js";
import { createPluginLifecycle } from "./plugins.lifecycle.js";
import { createPluginState, type PluginsDeps } from "./plugins.state.js";

export type { HostCommandGuard, PluginInput } from "./plugins.define.js";
export { renderCompose, templateContext } from "./plugins.render.js";
export type { PluginMetricsTarget } from "./plugins.state.js";

/**
 * Plugins: definitions (YAML in upstream's format, plus `spec.processes`), deployments bound to
 * the console's resources, and their processes or compose projects. One operation per plugin at a
 * time; the status column decides races between consoles' requests on both databases. Each verb
 * lives in its own file (define, deploy, lifecycle, inspect) over one shared state.
 */
export function createPluginsService(deps: PluginsDeps) {
  const state = createPluginState(deps);
  const deploy = createPluginDeploy(deps, state);
  return {
    ...createPluginInspect(deps, state),
    ...createPluginDefinitions(deps, state),
    deploy: deploy.deploy,
    ...createPluginLifecycle(deps, state, deploy.deployNow),
  };
}

export type PluginsService = ReturnType<typeof createPluginsService>;

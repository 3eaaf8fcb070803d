// Fetching the modules and module_steps routes; modules answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { ModulePhase, ModulesAnswer, ModuleStepsAnswer } from "./types";

export function fetchModules(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<ModulesAnswer> {
  return getJson(`./modules?${query(run, { rank })}`, signal, onProgress);
}

export function fetchModuleSteps(
  run: string,
  rank: number | null,
  path: string,
  phase: ModulePhase,
  signal: AbortSignal,
): Promise<ModuleStepsAnswer> {
  return getJson(`./module_steps?${query(run, { rank, path, phase })}`, signal);
}

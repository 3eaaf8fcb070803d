// Fetching the analysis routes; each answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../api";
import type {
  BreakdownAnswer,
  FindingsAnswer,
  KernelsAnswer,
  ModulePhase,
  ModulesAnswer,
  ModuleStepsAnswer,
  OperatorsAnswer,
} from "./types";

export function fetchFindings(
  run: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<FindingsAnswer> {
  return getJson(`./findings?${query(run)}`, signal, onProgress);
}

export function fetchBreakdown(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<BreakdownAnswer> {
  return getJson(`./breakdown?${query(run, { rank })}`, signal, onProgress);
}

export function fetchOperators(
  run: string,
  rank: number | null,
  groupBy: "name" | "input_dims",
  limit: number,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<OperatorsAnswer> {
  const url = `./operators?${query(run, { rank, group_by: groupBy, limit })}`;
  return getJson(url, signal, onProgress);
}

export function fetchKernels(
  run: string,
  rank: number | null,
  limit: number,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<KernelsAnswer> {
  return getJson(`./kernels?${query(run, { rank, limit })}`, signal, onProgress);
}

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

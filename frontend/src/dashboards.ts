// The dashboard tabs, in tab-bar order; the first one is the default. Adding a tab is one line.

import { kernelsDashboard } from "./analysis/kernels";
import { modulesDashboard } from "./analysis/modules";
import { operatorsDashboard } from "./analysis/operators";
import { compareDashboard } from "./compare/dashboard";
import type { Dashboard } from "./dashboard";
import { gpuDashboard } from "./gpu/dashboard";
import { memoryDashboard } from "./memory/dashboard";
import { overviewDashboard } from "./overview";
import { pythonDashboard } from "./python/dashboard";
import { tasksDashboard } from "./tasks/dashboard";
import { timelineDashboard } from "./timeline/dashboard";

export const DASHBOARDS: readonly Dashboard[] = [
  overviewDashboard,
  timelineDashboard,
  operatorsDashboard,
  kernelsDashboard,
  modulesDashboard,
  pythonDashboard,
  tasksDashboard,
  memoryDashboard,
  gpuDashboard,
  compareDashboard,
];

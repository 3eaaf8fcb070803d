// The dashboard tabs, in tab-bar order; the first one is the default. Adding a tab is one line.

import type { Dashboard } from "./base/dashboard";
import { compareDashboard } from "./compare/dashboard";
import { distributedDashboard } from "./distributed/dashboard";
import { gpuDashboard } from "./gpu/dashboard";
import { kernelsDashboard } from "./kernels/dashboard";
import { memoryDashboard } from "./memory/dashboard";
import { modulesDashboard } from "./modules/dashboard";
import { operatorsDashboard } from "./operators/dashboard";
import { overviewDashboard } from "./overview/dashboard";
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
  distributedDashboard,
  memoryDashboard,
  gpuDashboard,
  compareDashboard,
];

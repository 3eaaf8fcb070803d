// The plugin's style sheet: each folder's rules, joined in cascade order (a later rule wins a
// tie of specificity, so the order is the one the single sheet had). index.ts injects it.

import base from "./base/styles.css";
import compare from "./compare/styles.css";
import memory from "./memory/styles.css";
import modules from "./modules/styles.css";
import panels from "./panels/panels.css";
import rankHeatmap from "./panels/rankHeatmap.css";
import timeline from "./timeline/styles.css";

export const STYLES = [base, timeline, panels, modules, memory, compare, rankHeatmap].join("");

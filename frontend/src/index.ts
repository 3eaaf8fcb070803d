// Entry point: TensorBoard's plugin_entry.html imports this module and calls render().

import { App } from "./app";
import { h } from "./base/dom";
import { listenForTensorBoardReload } from "./base/reload";
import { followTheme } from "./base/theme";
import { STYLES } from "./styles";

export function render(): void {
  document.head.append(h("style", {}, STYLES));
  followTheme();
  const app = new App(document.body);
  listenForTensorBoardReload(() => void app.reload());
  void app.reload();
}

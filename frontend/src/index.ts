// Entry point: TensorBoard's plugin_entry.html imports this module and calls render().

import { App } from "./app";
import { h } from "./dom";
import { listenForTensorBoardReload } from "./reload";
import styles from "./styles.css";
import { followTheme } from "./theme";

export function render(): void {
  document.head.append(h("style", {}, styles));
  followTheme();
  const app = new App(document.body);
  listenForTensorBoardReload(() => void app.reload());
  void app.reload();
}

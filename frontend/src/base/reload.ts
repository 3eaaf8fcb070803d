// TensorBoard's plugin IPC: the iframe offers a MessagePort with 'experimental.bootstrap'; the
// parent then sends JSON-string messages {type, id, payload, error, isReply} on it. Its reload
// button broadcasts 'experimental.DataReloaded' and waits for every plugin's reply.

interface IpcMessage {
  type: string;
  id: number;
  isReply: boolean;
}

const DATA_RELOADED = "experimental.DataReloaded";

function parseMessage(data: unknown): IpcMessage | null {
  if (typeof data !== "string") return null;
  try {
    const message: unknown = JSON.parse(data);
    return typeof message === "object" && message !== null && "type" in message && "id" in message
      ? (message as IpcMessage)
      : null;
  } catch {
    return null;
  }
}

/** Calls `onReload` whenever TensorBoard's reload fires. A no-op outside TensorBoard. */
export function listenForTensorBoardReload(onReload: () => void): void {
  if (window.parent === window) return;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent) => {
    const message = parseMessage(event.data);
    // We never send requests, so replies are not ours; anything unparsable is not TensorBoard's.
    if (message === null || message.isReply) return;
    const reply = { type: message.type, id: message.id, payload: null, error: null, isReply: true };
    channel.port1.postMessage(JSON.stringify(reply));
    if (message.type === DATA_RELOADED) onReload();
  };
  try {
    window.parent.postMessage("experimental.bootstrap", "*", [channel.port2]);
  } catch {
    // A parent that refuses the message is not TensorBoard: no reloads to follow.
  }
}

// View state lives in the iframe's own location.hash so a page reload restores the same view.
// Each module owns its keys (the app: run, rank; overview: sort, dir).

export function readHash(): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

export function updateHash(changes: Record<string, string | null>): void {
  const params = readHash();
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  // An absolute URL: a relative "#..." would resolve against <base href="plugin/tb_perf/">.
  const url = new URL(location.href);
  url.hash = params.toString();
  // replaceState, not location.hash: view tweaks should not fill the parent's back-button history.
  history.replaceState(history.state, "", url.href);
}

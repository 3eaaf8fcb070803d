// base/hashState.ts and timeline/hashState.ts: view state in the iframe's location.hash, on a
// stand-in location and history (node has neither).

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { readHash, updateHash } from "../src/base/hashState";
import { EMPTY_STATE, readTimelineHash, writeTimelineHash } from "../src/timeline/hashState";

const PAGE = "http://localhost:6006/data/plugin/tb_perf/index.html";

class FakeLocation {
  href = PAGE;
  get hash(): string {
    const at = this.href.indexOf("#");
    return at < 0 || at === this.href.length - 1 ? "" : this.href.slice(at);
  }
}

const location = new FakeLocation();
const replaced: string[] = [];
const history = {
  state: { kept: true } as unknown,
  replaceState(state: unknown, _title: string, url: string): void {
    this.state = state;
    location.href = url;
    replaced.push(url);
  },
};
Object.assign(globalThis, { location, history });

function setHash(hash: string): void {
  location.href = `${PAGE}${hash}`;
}

beforeEach(() => {
  setHash("");
  replaced.length = 0;
});

test("readHash parses the hash as query parameters", () => {
  setHash("#run=a%2Fb&rank=3");
  const params = readHash();
  assert.equal(params.get("run"), "a/b");
  assert.equal(params.get("rank"), "3");
  setHash("");
  assert.equal(readHash().toString(), "");
});

test("updateHash sets and deletes keys, keeping the others, and replaces the history entry", () => {
  setHash("#run=r1&sort=name");
  updateHash({ rank: "2", sort: null });
  updateHash({ q: "aten::mm x" });
  assert.equal(location.hash, "#run=r1&rank=2&q=aten%3A%3Amm+x");
  assert.deepEqual(replaced, [`${PAGE}#run=r1&rank=2`, `${PAGE}#run=r1&rank=2&q=aten%3A%3Amm+x`]);
  assert.deepEqual(history.state, { kept: true }, "the history state is kept");
  updateHash({ run: null, rank: null, q: null });
  assert.equal(location.hash, "");
  assert.ok(location.href.startsWith(PAGE), "an absolute URL, not one relative to <base>");
});

test("readTimelineHash reads the window, selection, ranks and search", () => {
  setHash("#start=10&end=20&sel=1:42&ranks=0,2&q=nccl");
  assert.deepEqual(readTimelineHash(), {
    window: { start: 10, end: 20 },
    selected: { rank: 1, id: 42 },
    enabledRanks: [0, 2],
    search: "nccl",
  });
  setHash("");
  assert.deepEqual(readTimelineHash(), EMPTY_STATE);
});

test("readTimelineHash drops what is malformed, key by key", () => {
  setHash("#start=20&end=10&sel=1&ranks=0,x&q=");
  assert.deepEqual(readTimelineHash(), EMPTY_STATE);
  setHash("#start=1.5&end=20&sel=1:2:3");
  assert.equal(readTimelineHash().window, null, "not integers");
  assert.equal(readTimelineHash().selected, null);
  setHash("#ranks=");
  assert.deepEqual(readTimelineHash().enabledRanks, [], "present but empty: no rank shown");
});

test("writeTimelineHash writes only the keys given and round-trips", () => {
  setHash("#run=r&q=old");
  writeTimelineHash({ window: { start: 10.4, end: 20.6 }, selected: { rank: 0, id: 7 } });
  assert.equal(location.hash, "#run=r&q=old&start=10&end=21&sel=0%3A7");
  writeTimelineHash({ enabledRanks: [1, 3], search: "" });
  assert.equal(location.hash, "#run=r&start=10&end=21&sel=0%3A7&ranks=1%2C3");
  assert.deepEqual(readTimelineHash(), {
    window: { start: 10, end: 21 },
    selected: { rank: 0, id: 7 },
    enabledRanks: [1, 3],
    search: "",
  });
  writeTimelineHash({ window: null, selected: null, enabledRanks: null });
  assert.equal(location.hash, "#run=r");
});

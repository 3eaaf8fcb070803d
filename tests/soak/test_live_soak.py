"""Soak: a real TensorBoard serves a logdir while a real training job writes into it.

Rank 0 of a CPU training job (tests/soak/live_worker.py: MyTimer spans, MemorySampler,
profile_steps windows) starts writing; rank 1 starts later; halfway through, a raw
torch.profiler trace is copied slowly into a second run (as a copy onto a shared file system
lands). Meanwhile client threads poll TensorBoard's listing and the plugin's runs, summary,
findings, breakdown, operators, memory and timeline meta + tiles routes, as the frontend
does on each reload. Checked:

- every request is answered (per-request timeout) with 200 or 202, never 4xx/5xx (but
  timeline/meta's 404 for a run with nothing to draw yet); timeline tiles are asked for the
  whole run and for a window past its end (where a user pans to);
- per client, a rank's step count only grows between polls;
- rank 1 and every trace window appear once written; the trace being copied is reported as
  still being written (a warning on a 200 answer, not an error) and then shows up;
- at the end, every route answers exactly as a fresh server (fresh cache) on the finished
  logdir does: nothing read while the files grew is lost or stale.

The CI version runs ~25 s (24 steps, 4 clients). `TB_PERF_SOAK=1` runs the long version:
600 steps (~3 min of training), 16 clients, rank 1 joining after 50 steps.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.conftest import STARTUP_TIMEOUT_S, _free_port, _plugin_listed, _stop

SOAK = os.environ.get("TB_PERF_SOAK") == "1"
WORKER = Path(__file__).with_name("live_worker.py")
STEPS = 600 if SOAK else 24
STEP_S = 0.2 if SOAK else 0.25
CLIENTS = 16 if SOAK else 4
RANK1_AFTER = 50 if SOAK else 6  # rank 0's step at which rank 1 starts
REQUEST_TIMEOUT_S = 60  # one request; longer is a hang
DISCOVERY_TTL_S = 5.0  # RunStore's: new files are seen within this
LIVE_RUN, COPIED_RUN = "live", "copied"
IN_PROGRESS = "still being written"
COPY_PIECES = 400  # of the copied trace; past half, one every 0.25 s until the test has looked
ROUTES = ("summary", "findings", "breakdown", "operators", "memory", "timeline/meta")


@dataclass
class Answer:
    status: int
    body: object


class Server:
    def __init__(self, url: str) -> None:
        self.url = url

    def get(self, path: str, **params: object) -> Answer:
        """One GET; HTTP errors are answers too (their status is checked), a timeout raises."""
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        try:
            with urllib.request.urlopen(self.url + path + query, timeout=REQUEST_TIMEOUT_S) as r:
                return Answer(r.status, json.load(r))
        except urllib.error.HTTPError as exc:
            return Answer(exc.code, exc.read().decode(errors="replace"))

    def route(self, route: str, **params: object) -> Answer:
        return self.get(f"/data/plugin/tb_perf/{route}", **params)

    def ready(self, route: str, **params: object) -> object:
        """The route's 200 answer, polling while it answers 202."""
        deadline = time.monotonic() + 120
        while (answer := self.route(route, **params)).status == 202:
            assert time.monotonic() < deadline, f"{route} still 202 after 120 s"
            time.sleep(0.2)
        assert answer.status == 200, (route, params, answer)
        return answer.body


@contextmanager
def tensorboard(logdir: Path, cache_dir: Path, log: Path) -> Iterator[Server]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TB_PERF_CACHE_DIR": str(cache_dir)}
    env.pop("TB_PERF_EXECUTOR", None)  # the default (a process pool), as users run it
    command = [sys.executable, "-m", "tensorboard.main", "--logdir", str(logdir),
               "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    with open(log, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _plugin_listed(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"TensorBoard did not start at {url}:\n{log.read_text()}")
            time.sleep(0.2)
        yield Server(url)
    except BaseException:
        print(f"TensorBoard's log ({log}), last lines:\n{log.read_text()[-6000:]}")
        raise
    finally:
        _stop(process)


@dataclass
class Observed:
    """What the clients saw, shared between their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)  # bad statuses, shrinking steps, hangs
    ranks: set[int] = field(default_factory=set)  # of the live run, from summary
    traced_steps: set[int] = field(default_factory=set)  # breakdown's steps (from traces)

    def answer(self, what: str, answer: Answer) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[answer.status] = self.statuses.get(answer.status, 0) + 1
            if answer.status not in (200, 202) and not nothing_to_draw(what, answer):
                self.failures.append(f"{what}: {answer.status} {answer.body}")


def nothing_to_draw(what: str, answer: Answer) -> bool:
    """timeline/meta's 404 for a run with no trace events or spans yet (docs/HTTP_API.md)."""
    return what.startswith("timeline/meta") and answer.status == 404 and "to draw" in answer.body


def poll_once(server: Server, seen: Observed, last_steps: dict[tuple[str, int], int]) -> None:
    """One reload of the dashboard: TensorBoard's listing, then every route of every run."""
    for path in ("/data/plugins_listing", "/data/runs"):
        seen.answer(path, server.get(path))
    runs = server.route("runs")
    seen.answer("runs", runs)
    for run in runs.body if runs.status == 200 else []:
        name = run["name"]
        for route in ROUTES:
            answer = server.route(route, run=name)
            seen.answer(f"{route} {name}", answer)
            if answer.status != 200:
                continue
            body = answer.body
            if route == "summary":
                for rank in body["ranks"]:
                    key = (name, rank["rank"])
                    if rank["steps"] < last_steps.get(key, 0):
                        with seen.lock:
                            seen.failures.append(f"{key}: {last_steps[key]} -> {rank['steps']}")
                    last_steps[key] = rank["steps"]
                if name == LIVE_RUN:
                    with seen.lock:
                        seen.ranks |= {r["rank"] for r in body["ranks"]}
            elif route == "breakdown" and name == LIVE_RUN:
                with seen.lock:
                    seen.traced_steps |= {s["step"] for r in body["ranks"] for s in r["steps"]}
            elif route == "timeline/meta":
                end = body["end"]
                for start, stop in ((0, end), (end + 1, 2 * end + 2)):  # the run; past its end
                    tiles = server.route("timeline/tiles", run=name, start=start, end=stop,
                                         width_px=800)  # fmt: skip
                    seen.answer(f"timeline/tiles {name}", tiles)


def client(server: Server, seen: Observed, stop: threading.Event) -> None:
    last_steps: dict[tuple[str, int], int] = {}
    while not stop.is_set():
        try:
            poll_once(server, seen, last_steps)
        except OSError as exc:  # a timeout or a dropped connection: not answered
            with seen.lock:
                seen.failures.append(f"not answered: {exc!r}")


def start_rank(run_dir: Path, rank: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "RANK": str(rank), "WORLD_SIZE": "2", "OMP_NUM_THREADS": "1"}
    command = [sys.executable, str(WORKER), str(run_dir), "--steps", str(STEPS),
               "--step-s", str(STEP_S)]  # fmt: skip
    with open(log, "wb") as errors:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env, text=True)


def wait_for_step(worker: subprocess.Popen, step: int) -> None:
    for line in worker.stdout:
        if line.strip() == f"step {step}":
            return
    raise AssertionError(f"the worker ended before step {step} (exit {worker.wait()})")


def copy_slowly(source: Path, target: Path, half_written: threading.Event,
                checked: threading.Event) -> None:  # fmt: skip
    """Write a real trace under its final name a little at a time, as a copy onto a shared file
    system does; once half is written, keep writing slowly until the test has looked at the
    file being written, then write the rest."""
    data = gzip.decompress(source.read_bytes())
    pieces = [data[i * len(data) // COPY_PIECES : (i + 1) * len(data) // COPY_PIECES]
              for i in range(COPY_PIECES)]  # fmt: skip
    target.parent.mkdir(parents=True)
    with open(target, "wb") as out:
        for index, piece in enumerate(pieces[:-1]):
            out.write(piece)
            out.flush()
            if index < COPY_PIECES // 2:
                time.sleep(0.005)
                continue
            half_written.set()
            if not checked.is_set():
                time.sleep(0.25)
        checked.wait(REQUEST_TIMEOUT_S * 2)
        out.write(pieces[-1])


def final_answers(server: Server) -> dict[str, object]:
    """Every route of every run, as served once nothing changes any more."""
    answers: dict[str, object] = {"runs": server.ready("runs")}
    for run in answers["runs"]:
        name = run["name"]
        for route in ROUTES:
            answers[f"{route} {name}"] = server.ready(route, run=name)
        end = answers[f"timeline/meta {name}"]["end"]
        answers[f"tiles {name}"] = server.ready("timeline/tiles", run=name, start=0, end=end,
                                                width_px=800)  # fmt: skip
    return answers


def settled_answers(server: Server) -> dict[str, object]:
    """final_answers once two rounds a few seconds apart agree: a live run's views may show
    the version read last while the newest one is being read."""
    answers = final_answers(server)
    for _ in range(10):
        time.sleep(2)
        previous, answers = answers, final_answers(server)
        if answers == previous:
            return answers
    raise AssertionError("the answers kept changing after the files stopped changing")


def test_live_training_served_to_concurrent_clients(tmp_path):
    logdir = tmp_path / "logs"
    logdir.mkdir()
    seen, stop = Observed(), threading.Event()
    with tensorboard(logdir, tmp_path / "cache", tmp_path / "tensorboard.log") as server:
        rank0 = start_rank(logdir / LIVE_RUN, 0, tmp_path / "rank0.log")
        clients = [threading.Thread(target=client, args=(server, seen, stop), daemon=True)
                   for _ in range(CLIENTS)]  # fmt: skip
        for thread in clients:
            thread.start()
        wait_for_step(rank0, RANK1_AFTER)
        rank1 = start_rank(logdir / LIVE_RUN, 1, tmp_path / "rank1.log")
        with seen.lock:
            assert 1 not in seen.ranks  # it had not written yet
        plugin_dir = logdir / LIVE_RUN / "plugins" / "tb_perf"
        first_trace = min(plugin_dir.glob("rank0.*.pt.trace.json.gz"))
        copy_target = logdir / COPIED_RUN / "worker0.1.pt.trace.json"
        half_written, checked = threading.Event(), threading.Event()
        copier = threading.Thread(
            target=copy_slowly, args=(first_trace, copy_target, half_written, checked)
        )
        copier.start()
        assert half_written.wait(30)
        half = server.ready("summary", run=COPIED_RUN)
        assert any(IN_PROGRESS in w for w in half["warnings"]), half["warnings"]
        checked.set()
        copier.join()
        finished = time.time() - 120  # a raw-trace run's status follows its files' age: the
        os.utime(copy_target, (finished, finished))  # copy says "finished" on both servers
        for worker, log in ((rank0, "rank0.log"), (rank1, "rank1.log")):
            worker.stdout.read()
            assert worker.wait() == 0, (tmp_path / log).read_text()[-3000:]
        time.sleep(DISCOVERY_TTL_S + 1)  # the clients see the finished files too
        stop.set()
        for thread in clients:
            thread.join(REQUEST_TIMEOUT_S * 3)
            assert not thread.is_alive(), "a client hangs"
        live = settled_answers(server)
    written_windows = {int(p.name.split(".steps")[1].split("-")[0])
                       for p in plugin_dir.glob("rank*.pt.trace.json.gz")}  # fmt: skip
    print(f"\n{seen.requests} requests by {CLIENTS} clients, statuses {seen.statuses}")
    log = (tmp_path / "tensorboard.log").read_text()
    assert not seen.failures, (seen.failures[:20], log[log.find("Traceback") :][:6000])
    assert seen.statuses.get(200, 0) > 0
    assert seen.ranks == {0, 1}
    assert written_windows and written_windows <= seen.traced_steps  # each window's first step
    assert live["summary live"]["steps"]["count"] == STEPS
    assert {r["status"] for r in live["summary live"]["ranks"]} == {"finished"}
    assert not any(IN_PROGRESS in w for w in live[f"summary {COPIED_RUN}"]["warnings"])
    assert live[f"timeline/meta {COPIED_RUN}"]["events"] > 0  # the copied trace shows up
    with tensorboard(logdir, tmp_path / "fresh_cache", tmp_path / "fresh.log") as fresh:
        again = settled_answers(fresh)
    differing = sorted(k for k in live.keys() | again.keys() if live.get(k) != again.get(k))
    assert not differing, f"answers differ from a fresh server's: {differing}"

"""Bad input for the cProfile / pstats reader (`read_python_profile`): marshal data damaged byte
by byte and value by value (every marshal type in every slot, huge and non-finite numbers, lone
surrogates in names, deep nesting, every marshal version), and keys whose hashes collide (ints
and tuples of ints that are multiples of 2**61 - 1, valid-looking keys with such lines, sets of
them).

The bulk runs the child's own reader (`_pstats_child.main`, unchanged) in one driver process
(`_pstats_driver.py`) under the child's resource limits and a per-case alarm: an answer must be
`{"error": ...}` or well-formed rows, and the driver must never die. It is also compared with a
second implementation, `marshal.loads` and the shape checked on its objects: whatever the child
reads, the reference reads the same rows; whatever the reference refuses, the child refuses (the
child may refuse more: it checks values a later repeated key would have replaced). A sample of
the same cases goes through the real path (`read_python_profile`: one limited child process per
file) and must give a table or Unreadable. Counts: CI 300 bulk + 15 real; `TB_PERF_SOAK=1`
10,000 bulk + 1,000 real.
"""

from __future__ import annotations

import cProfile
import hashlib
import json
import marshal
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import python_profile
from tb_perf_plugin.ingest.python_profile import PythonProfile, read_python_profile

from ._fuzz import (
    CASE_TIMEOUT_S,
    SEED,
    case_count,
    mutate_bytes,
    run_cases,
    wrong_compression,
)

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("_pstats_driver.py")
CHILD_DIR = Path(python_profile.__file__).parent
MAX_BYTES = 4 << 20
VALUES = (
    None, True, 0, -1, 2**63, 2**70, -(2**63) - 1, 1.5, -1e308, math.nan, math.inf, -math.inf,
    "", "\udcff", "名前", b"bytes", (), ("a",), ("f.py", 1, "g"), ("f.py", 2**64, "g"),
    (1, 2, 3, 4), (1, 2, 3.0, math.nan), [], {}, frozenset({1}), {"x": 1}, 1j,
)  # fmt: skip


def _busy(n: int) -> int:
    return sum(i * i for i in range(n)) + (n and _busy(n // 2))


def _profile_stats() -> dict:
    """A real cProfile dictionary (`pstats.Stats.stats` as dumped), made here."""
    profiler = cProfile.Profile()
    profiler.runcall(_busy, 2000)
    profiler.create_stats()
    return profiler.stats


def _seeds() -> list[dict]:
    return [_profile_stats()]


P61 = 2**61 - 1  # hash(k * P61) == 0 for every int k, in every process
# a valid key and the first four slots of its entry, the callers slot left to fill
_ENTRY_HEAD = (
    marshal.dumps(("f.py", 1, "g")) + b")\x05" + marshal.dumps(1) * 2 + marshal.dumps(0.5) * 2
)


def _colliding(rng: random.Random) -> tuple[str, bytes]:
    """marshal bytes (assembled by hand: a dict of colliding keys is quadratic to build here
    too) whose keys or set members all hash alike."""
    n = rng.choice((200, 2000, 20_000))
    keys = [k * P61 for k in range(1, n + 1)]
    entry = marshal.dumps((1, 1, 0.5, 0.5, {}))
    op = rng.randrange(5)
    if op == 0:
        label, pairs = "int keys", [marshal.dumps(k) + marshal.dumps(None) for k in keys]
    elif op == 1:
        label, pairs = "tuple-of-int keys", [marshal.dumps((k, 0, 0)) + entry for k in keys]
    elif op == 2:
        label, pairs = "lines that collide", [marshal.dumps(("f.py", k, "g")) + entry for k in keys]
    elif op == 3:
        callers = b"{" + b"".join(marshal.dumps((k, 0, 0)) + marshal.dumps(1) for k in keys)
        label, pairs = "callers keyed by colliding tuples", [_ENTRY_HEAD + callers + b"0"]
    else:
        members = b"".join(marshal.dumps(k) for k in keys)
        label = "a frozenset of colliding ints as callers"
        pairs = [_ENTRY_HEAD + b">" + n.to_bytes(4, "little") + members]
    return f"collision: {n} {label}", b"{" + b"".join(pairs) + b"0"


def _mutate_stats(rng: random.Random, stats: dict) -> tuple[str, dict]:
    stats = dict(stats)
    key = rng.choice(list(stats))
    entry = list(stats[key])
    op = rng.randrange(5)
    if op == 0:
        slot = rng.randrange(5)
        entry[slot] = rng.choice(VALUES)
        stats[key] = tuple(entry)
        return f"entry slot {slot} replaced", stats
    if op == 1:
        stats[rng.choice(VALUES[:20])] = stats.pop(key)
        return "key replaced", stats
    if op == 2 and entry[4]:
        callers = dict(entry[4])
        callers[rng.choice(list(callers))] = rng.choice(VALUES)
        entry[4] = callers
        stats[key] = tuple(entry)
        return "caller edge replaced", stats
    if op == 3:
        stats[key] = rng.choice(VALUES)
        return "entry replaced", stats
    nested: object = 0
    for _ in range(rng.choice((100, 1000, 3000))):
        nested = (nested,)
    stats[key] = nested
    return "deep nesting", stats


def _generator(seeds: list[dict]):
    raw = [marshal.dumps(seed) for seed in seeds]

    def generate(rng: random.Random) -> tuple[str, bytes]:
        pick = rng.random()
        if pick < 0.04:
            return _colliding(rng)
        if pick < 0.1:
            version = rng.randrange(5)
            return f"valid, marshal version {version}", marshal.dumps(rng.choice(seeds), version)
        if pick < 0.5:
            label, stats = _mutate_stats(rng, rng.choice(seeds))
            try:
                return label, marshal.dumps(stats)
            except ValueError:  # nesting marshal itself refuses to write
                return label + " (unwritable: seed)", rng.choice(raw)
        if pick < 0.95:
            return mutate_bytes(rng, rng.choice(raw))
        return wrong_compression(rng, rng.choice(raw))

    return generate


def _check_answer(answer: dict) -> None:
    if "error" in answer:
        assert isinstance(answer["error"], str) and answer.keys() == {"error"}
        return
    assert answer.keys() == {"rows", "total_ns", "calls", "primitive_calls"}
    for row in answer["rows"]:
        filename, line, name, cc, nc, tt, ct = row
        assert isinstance(filename, str) and isinstance(name, str)
        assert all(isinstance(v, int) and -(2**63) <= v < 2**63 for v in (line, cc, nc, tt, ct))


def _compare(answer: dict, reference: dict | None) -> str | None:
    """None when the child and the reference agree; "stricter" when only the child refused;
    else what differs."""
    if reference is None:
        return None
    if "error" in answer:
        return "stricter" if "rows" in reference else None
    if "rows" not in reference:
        return f"the child read what the reference refuses ({reference['error']})"
    if answer != reference:
        return "the child's rows or totals differ from the reference's"
    return None


def _driver(mode: str, files: list[str]) -> tuple[list[dict], str | None]:
    """The driver's answers for `files`, in batches (command-line length); in `reference`
    mode a file marshal.loads died on answers `{"reference": {"error": "died"}}` and the driver
    goes on after it. Also the first death of the `child` mode (what it said), if any."""
    memory = python_profile.BASE_MEMORY_BYTES + python_profile.MEMORY_PER_FILE_BYTE * MAX_BYTES
    answers: list[dict] = []
    while len(answers) < len(files):
        chunk = files[len(answers) : len(answers) + 500]
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(DRIVER), mode, str(CHILD_DIR), str(MAX_BYTES),
             str(memory), str(10**6), str(CASE_TIMEOUT_S), *chunk],
            capture_output=True, timeout=CASE_TIMEOUT_S * len(chunk) + 60,
        )  # fmt: skip
        answers += [json.loads(line) for line in done.stdout.decode().splitlines()]
        if done.returncode != 0 and len(answers) < len(files):
            if mode == "child":
                return answers, f"rc {done.returncode}: {done.stderr.decode()[-500:]}"
            answers.append({"reference": {"error": f"died (rc {done.returncode})"}})
    return answers, None


def test_damaged_profiles_give_an_answer_from_the_child_side(tmp_path):
    count = case_count(300)
    generate = _generator(_seeds())
    folder = tmp_path / "cases"
    folder.mkdir()
    labels, files = [], []
    for index in range(count):
        label, data = generate(random.Random(f"{SEED}:pstats:{index}"))
        collision = label.startswith("collision")
        path = folder / (f"{index}.nocompare.prof" if collision else f"{index}.prof")
        path.write_bytes(data)
        labels.append(label)
        files.append(str(path))
    started = time.perf_counter()
    answers, died = _driver("child", files)
    child_s = time.perf_counter() - started
    references, _ = _driver("reference", files)
    failures, stricter, read = [], [], 0
    if died is not None:
        failures.append(f"driver died at case {len(answers)} ({labels[len(answers)]}): {died}")
    for index, (line, second) in enumerate(zip(answers, references, strict=False)):
        try:
            assert "crash" not in line, line.get("crash")
            answer = line["answer"]
            _check_answer(answer)
            if answer.get("error") != "too_big":
                digest = hashlib.sha256(Path(files[index]).read_bytes()).hexdigest()
                assert line["digest"] == digest, "the digest is not the file's"
            if labels[index].startswith("collision"):
                assert "error" in answer and "memory" not in answer["error"], answer
            differs = _compare(answer, second["reference"])
            assert differs in (None, "stricter"), differs
            if differs == "stricter":
                stricter.append(f"case {index} ({labels[index]}): {answer['error']}")
            read += "rows" in answer
        except AssertionError as exc:
            failures.append(f"case {index} ({labels[index]}): {exc}; input {files[index]}")
    died_in_marshal = sum("died" in str(r["reference"]) for r in references)
    print(
        f"pstats child side: {count} cases ({read} read, {count - read} refused) in "
        f"{child_s:.1f} s, seed {SEED}; the reference refused {len(stricter)} fewer and "
        f"marshal.loads died on {died_in_marshal}"
    )
    for case in stricter[:10]:
        print("  refused only by the child:", case)
    assert not failures, f"seed {SEED}:\n" + "\n".join(failures[:5])


def test_damaged_profiles_through_the_real_child_process(tmp_path):
    def check(profile: PythonProfile) -> None:
        assert len(profile.functions) > 0

    run_cases(
        "pstats", lambda path: read_python_profile(path, MAX_BYTES, timeout_s=CASE_TIMEOUT_S),
        _generator(_seeds()), case_count(15, 1_000), tmp_path, "fuzz.prof", check,
    )  # fmt: skip


def test_a_profile_over_the_limit_is_refused_without_a_child(tmp_path):
    path = tmp_path / "big.prof"
    path.write_bytes(marshal.dumps(_profile_stats()))
    with pytest.raises(Unreadable, match="limit"):
        read_python_profile(str(path), 100)


def test_a_profile_that_unmarshals_past_the_memory_limit_is_stopped(tmp_path):
    """A 1 MB marshal file can ask for a huge list up front; the child's address-space limit
    stops it and the answer says so."""
    path = tmp_path / "bomb.prof"
    # TYPE_LIST with 2**31 - 1 items, then nothing: the list is allocated before items are read
    path.write_bytes(b"[" + (2**31 - 1).to_bytes(4, "little") + b"N" * (1 << 20))
    with pytest.raises(Unreadable):
        read_python_profile(str(path), MAX_BYTES, memory_bytes=256 << 20)
    assert os.path.getsize(path) < MAX_BYTES

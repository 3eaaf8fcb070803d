"""Bad input for the run format's own files: JSON-lines record files (timer, modules, memory,
system, compile), rank metadata and task summaries. Every damaged file must read (possibly with
lines skipped) or be refused with Unreadable, never raise anything else or hang; and what the
collectors write must read back equal, a cut last line losing nothing before it.

Seeds: the demo run files in sample_runs/. Counts: a few hundred per parser in CI; with
`TB_PERF_SOAK=1`, 10,000 per parser (`TB_PERF_FUZZ_SEED` / `TB_PERF_FUZZ_CASE` replay one case).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.compile import read_compile_file
from tb_perf_plugin.ingest.memory import read_memory_file, read_system_file
from tb_perf_plugin.ingest.meta import read_meta
from tb_perf_plugin.ingest.modules import read_modules_file
from tb_perf_plugin.ingest.tasks import read_task_summary
from tb_perf_plugin.ingest.timer import read_timer_file

from ._fuzz import (
    case_count,
    dumps,
    mutate_bytes,
    mutate_json,
    run_cases,
    wrong_compression,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_runs"
MAX_BYTES = 1 << 20
SEED_BYTES = 12_000  # seeds are cut to about this many bytes of whole lines: cases stay fast


def _sample(pattern: str) -> bytes:
    found = sorted(SAMPLES.glob(f"*/plugins/tb_perf/{pattern}"))
    if not found:
        pytest.skip(f"no sample_runs file matches {pattern}")
    data = found[0].read_bytes()
    if len(data) <= SEED_BYTES:
        return data
    return data[: data.rfind(b"\n", 0, SEED_BYTES) + 1]


def _mutate_lines(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """Damage at the level of lines: one line's JSON mutated, lines dropped, repeated,
    reordered, joined, or the header replaced."""
    lines = data.split(b"\n")
    op = rng.randrange(6)
    at = rng.randrange(len(lines))
    if op <= 1:
        try:
            doc = json.loads(lines[at])
        except ValueError:
            doc = None
        if doc is not None:
            label, doc = mutate_json(rng, doc)
            lines[at] = dumps(doc)
            return f"line {at}: {label}", b"\n".join(lines)
    if op == 2:
        del lines[at : at + rng.randint(1, 5)]
        return f"lines from {at} dropped", b"\n".join(lines)
    if op == 3:
        lines[at:at] = lines[at : at + rng.randint(1, 3)] * rng.choice((2, 50))
        return f"lines from {at} repeated", b"\n".join(lines)
    if op == 4:
        rng.shuffle(lines)
        return "lines shuffled", b"\n".join(lines)
    header = rng.choice((
        b'{"schema": "tb_perf.timer", "version": 2}', b'{"version": 1}', b"[]", b"null",
        b'{"schema": "tb_perf.timer", "version": 1.0}', b'{"schema": 1, "version": "1"}',
        b"\xff\xfe{", b"", b"[" * 100_000 + b"]" * 100_000,
    ))  # fmt: skip
    return "header replaced", b"\n".join([header, *lines[1:]])


def _generator(seed: bytes):
    def generate(rng: random.Random) -> tuple[str, bytes]:
        pick = rng.random()
        if pick < 0.45:
            return _mutate_lines(rng, seed)
        if pick < 0.9:
            return mutate_bytes(rng, seed)
        return wrong_compression(rng, seed)

    return generate


JSONL_READERS = {
    "timer": ("rank0.*.timer.jsonl", read_timer_file),
    "modules": ("rank0.*.modules.jsonl", read_modules_file),
    "memory": ("rank0.*.memory.jsonl", read_memory_file),
    "system": ("rank0.*.system.jsonl", read_system_file),
    "compile": ("rank0.*.compile.jsonl", read_compile_file),
}


@pytest.mark.parametrize("kind", JSONL_READERS)
def test_damaged_record_files_read_or_are_refused(kind, tmp_path):
    pattern, reader = JSONL_READERS[kind]
    seed = _sample(pattern)
    run_cases(
        kind, lambda path: reader(path, MAX_BYTES), _generator(seed), case_count(300), tmp_path,
        f"rank0.fuzz.{kind}.jsonl",
    )  # fmt: skip


def test_damaged_metadata_reads_or_is_refused(tmp_path):
    seed = _sample("rank0.*.meta.json")
    run_cases(
        "meta", read_meta, _json_generator(seed), case_count(400), tmp_path, "rank0.fuzz.meta.json"
    )


def test_damaged_task_summaries_read_or_are_refused(tmp_path):
    seed = _sample("rank0.*.task-DIT.summary.json")
    run_cases(
        "tasks", lambda path: read_task_summary(path, MAX_BYTES), _json_generator(seed),
        case_count(400), tmp_path, "rank0.fuzz.task-DIT.summary.json",
    )  # fmt: skip


def _json_generator(seed: bytes):
    doc = json.loads(seed)

    def generate(rng: random.Random) -> tuple[str, bytes]:
        pick = rng.random()
        if pick < 0.5:
            label, mutated = mutate_json(rng, json.loads(json.dumps(doc)))
            for _ in range(rng.choice((0, 0, 1, 3))):
                more, mutated = mutate_json(rng, mutated)
                label += "; " + more
            return label, dumps(mutated)
        if pick < 0.9:
            return mutate_bytes(rng, seed)
        return wrong_compression(rng, seed)

    return generate


# --- regressions: inputs the fuzzer found to escape as other exceptions ---------------------

HEADERS = {
    "timer": b'{"schema": "tb_perf.timer", "version": 1}\n',
    "modules": b'{"schema": "tb_perf.modules", "version": 1}\n',
    "memory": b'{"schema": "tb_perf.memory", "version": 1}\n',
    "system": b'{"schema": "tb_perf.system", "version": 1}\n',
    "compile": b'{"schema": "tb_perf.compile", "version": 1}\n',
}
GOOD_LINES = {
    "timer": b'{"k":"step","step":0,"t0":1,"t1":2}\n',
    "modules": b'{"k":"module","id":1,"path":"","type":"M","parent":0,"params":1}\n',
    "memory": b'{"k":"mem","step":0,"t":5,"allocated":1}\n',
    "system": b'{"k":"sys","t":5,"cpu_pct":1.0,"gpus":[]}\n',
    "compile": b'{"k":"compile","step":0,"t":5}\n',
}
OUT_OF_INT64 = {
    "timer": b'{"k":"step","step":0,"t0":18446744073709551615,"t1":2}\n',
    "modules": b'{"k":"module","id":9223372036854775808,"path":"x","type":"M","parent":0,'
    b'"params":1}\n',
    "memory": b'{"k":"mem","step":-9223372036854775809,"t":5}\n',
    "system": b'{"k":"sys","t":5,"gpus":[{"index":99999999999999999999}]}\n',
    "compile": b'{"k":"compile","step":0,"t":5,"frames":18446744073709551616}\n',
}


@pytest.mark.parametrize("kind", JSONL_READERS)
@pytest.mark.parametrize("bad", ["out_of_int64", "deep_nesting", "deep_header"])
def test_out_of_range_and_deeply_nested_lines_are_skipped(kind, bad, tmp_path):
    """Integers beyond int64 (which msgspec decodes as Python ints) and lines nested deeper than
    the decoder's recursion limit are malformed lines: skipped and counted, the rest read."""
    path = tmp_path / f"rank0.x.{kind}.jsonl"
    line = {
        "out_of_int64": OUT_OF_INT64[kind],
        "deep_nesting": b'{"k":"' + kind.encode() + b'","x":' + b"[" * 100_000 + b"]" * 100_000
        + b"}\n",
        "deep_header": b"",
    }[bad]  # fmt: skip
    header = b"[" * 100_000 + b"\n" if bad == "deep_header" else HEADERS[kind]
    path.write_bytes(header + GOOD_LINES[kind] + line + GOOD_LINES[kind])
    reader = JSONL_READERS[kind][1]
    if bad == "deep_header":
        with pytest.raises(Unreadable, match="header"):
            reader(str(path), MAX_BYTES)
        return
    result = reader(str(path), MAX_BYTES)
    assert any("malformed" in p for p in result.problems), result.problems


def test_a_name_that_is_not_utf8_skips_only_its_line(tmp_path):
    path = tmp_path / "rank0.x.timer.jsonl"
    span = b'{"k":"span","id":1,"parent":0,"name":"%s","step":0,"t0":1,"t1":2}\n'
    path.write_bytes(HEADERS["timer"] + span % b"ok" + span % b"caf\xe9" + GOOD_LINES["timer"])
    tables = read_timer_file(str(path), MAX_BYTES)
    assert tables.spans["name"].astype(str).tolist() == ["ok"]
    assert len(tables.steps) == 1 and tables.problems == ["1 malformed line(s) skipped"]


@pytest.mark.parametrize("reader", [read_meta, lambda p: read_task_summary(p, MAX_BYTES)])
def test_deeply_nested_json_documents_are_refused(reader, tmp_path):
    path = tmp_path / "rank0.x.meta.json"
    path.write_bytes(b'{"schema": "tb_perf.meta", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    with pytest.raises(Unreadable):
        reader(str(path))


def test_metadata_with_out_of_range_numbers_is_refused_or_read(tmp_path):
    path = tmp_path / "rank0.x.meta.json"
    doc = json.loads(_sample("rank0.*.meta.json"))
    doc["rank"] = 2**64
    path.write_bytes(dumps(doc))
    with pytest.raises(Unreadable):
        read_meta(str(path))


# --- limits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", JSONL_READERS)
def test_record_files_over_the_limit_are_refused(kind, tmp_path):
    path = tmp_path / f"rank0.x.{kind}.jsonl"
    path.write_bytes(HEADERS[kind] + GOOD_LINES[kind] * 100)
    with pytest.raises(Unreadable, match="limit"):
        JSONL_READERS[kind][1](str(path), 1000)


def test_task_summary_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "rank0.x.task-A.summary.json"
    path.write_bytes(_sample("rank0.*.task-DIT.summary.json"))
    with pytest.raises(Unreadable, match="limit"):
        read_task_summary(str(path), 100)


def test_metadata_over_its_fixed_limit_is_refused(tmp_path):
    path = tmp_path / "rank0.x.meta.json"
    path.write_bytes(b'{"schema": "tb_perf.meta", "pad": "' + b"x" * (1 << 20) + b'"}')
    with pytest.raises(Unreadable, match="over the 1.0 MB limit for one metadata file"):
        read_meta(str(path))


# --- properties -----------------------------------------------------------------------------

NAME_PIECES = ["forward", "data", "名前", "\u00e9", 'a"b', "\\", "\n", "\x00", "\udcff", " ", "🙂"]


def _write_random_run(rng: random.Random, run_dir: Path) -> None:
    """A real MyTimer run with random span names, nesting and step counts."""
    with RunWriter(run_dir, rank=0, world_size=1) as writer:
        timer = MyTimer(writer, gpu=False)
        for step in range(rng.randint(1, 5)):
            timer.set_step(step)
            stack: list[str] = []
            for _ in range(rng.randint(0, 6)):
                if stack and rng.random() < 0.4:
                    timer.stop(stack.pop())
                    continue
                name = "".join(rng.choice(NAME_PIECES) for _ in range(rng.randint(1, 3)))
                timer.start(name)
                stack.append(name)
            while stack:
                timer.stop(stack.pop())
        timer.step()
        timer.close()


def _replace_lone_surrogates(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def test_whatever_the_timer_writes_reads_back_equal(tmp_path):
    """Property: for random runs of the real collector (any text in span names, lone
    surrogates of non-UTF-8 file names included), the reader gives exactly the records the file
    holds, as plain `json` reads them (lone surrogates, which are no Unicode text, as U+FFFD)."""
    for case in range(case_count(25, 2_000)):
        rng = random.Random(f"roundtrip:{case}")
        run_dir = tmp_path / f"run{case}"
        _write_random_run(rng, run_dir)
        (path,) = (run_dir / "plugins" / "tb_perf").glob("*.timer.jsonl")
        records = [json.loads(line) for line in path.read_text("utf-8").splitlines()[1:]]
        tables = read_timer_file(str(path), MAX_BYTES)
        spans = [r for r in records if r["k"] == "span"]
        assert tables.problems == [], f"case {case}"
        expected = [_replace_lone_surrogates(s["name"]) for s in spans]
        assert tables.spans["name"].astype(str).tolist() == expected, f"case {case}"
        assert tables.spans["t0"].tolist() == [s["t0"] for s in spans], case
        assert tables.steps["step"].tolist() == [r["step"] for r in records if r["k"] == "step"]


@pytest.mark.parametrize("kind", JSONL_READERS)
def test_a_cut_last_line_never_loses_earlier_records(kind, tmp_path):
    """Property: a file cut anywhere inside its last line reads exactly the records before that
    line, and the cut is reported as a truncated tail; read on from there once the writer
    finishes the line, the incremental read equals a read of the whole file."""
    seed = _sample(JSONL_READERS[kind][0])
    reader = JSONL_READERS[kind][1]
    last_start = seed.rstrip(b"\n").rfind(b"\n") + 1
    path = tmp_path / f"rank0.x.{kind}.jsonl"
    path.write_bytes(seed[:last_start])
    before = reader(str(path), MAX_BYTES)
    rng = random.Random(f"cut:{kind}")
    cuts = sorted(rng.sample(range(last_start + 1, len(seed)), min(20, len(seed) - last_start - 1)))
    for cut in cuts:
        path.write_bytes(seed[:cut])
        partial = reader(str(path), MAX_BYTES)
        assert partial.truncated_tail and partial.bytes_read == last_start
        assert _frames(partial) == _frames(before), f"cut at byte {cut}"
    path.write_bytes(seed[: cuts[0]] if cuts else seed)
    partial = reader(str(path), MAX_BYTES)
    with path.open("ab") as handle:  # the writer finishes: append, never rewrite
        handle.write(seed[cuts[0] :] if cuts else b"")
    assert _frames(reader(str(path), MAX_BYTES, previous=partial)) == _frames(
        reader(str(path), MAX_BYTES)
    )


def _frames(result) -> list:
    tables = getattr(result, "tables", None)
    if tables is None:
        tables = {"t": getattr(result, "table", None)}
        if tables["t"] is None:
            tables = {"spans": result.spans, "steps": result.steps}
    return [(name, table.astype(str).to_numpy().tolist()) for name, table in sorted(tables.items())]

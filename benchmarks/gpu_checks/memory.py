"""The memory collectors: MemorySampler's records vs torch.cuda.memory_stats()
(`memory_sampler`), MemorySnapshotter's dump at a real OOM read back by the plugin's ingest
(`snapshot_oom`).
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import torch

from collectors import MemorySampler, MemorySnapshotter, MyTimer, RunWriter

from .common import MAX_READ_BYTES, Context, GiB, MiB, Verdict, read_records, verdict

# --- 3. MemorySampler vs memory_stats ---------------------------------------------------------

SAMPLER_STEPS = 8
MEM_FIELDS = {
    "allocated": "allocated_bytes.all.current",
    "reserved": "reserved_bytes.all.current",
    "peak": "allocated_bytes.all.peak",
    "retries": "num_alloc_retries",
    "ooms": "num_ooms",
}


def memory_stats_fields(device: torch.device) -> dict[str, int | None]:
    """torch.cuda.memory_stats() as the `mem` record's fields."""
    stats = torch.cuda.memory_stats(device)
    return {name: stats.get(key) for name, key in MEM_FIELDS.items()}


def mem_mismatches(
    records: list[dict[str, Any]], expected: dict[int, dict[str, int | None]], device: str
) -> list[dict[str, Any]]:
    """Each field of each step where the sampler's record and memory_stats() differ."""
    by_step = {r["step"]: r for r in records if r["k"] == "mem"}
    out = []
    for step in sorted(set(by_step) | set(expected)):
        record, stats = by_step.get(step), expected.get(step)
        if record is None or stats is None:
            out.append({"step": step, "missing": "sampler record" if record is None else "stats"})
            continue
        if record["device"] != device:
            out.append({"step": step, "field": "device", "sampler": record["device"]})
        for name, value in stats.items():
            if record[name] != value:
                out.append(
                    {"step": step, "field": name, "sampler": record[name], "memory_stats": value}
                )
    return out


def check_memory_sampler(ctx: Context) -> Verdict:
    run_dir = ctx.run_dir("memory_sampler")
    timer = MyTimer(run_dir, gpu=False)
    sampler = MemorySampler(timer, device=ctx.device).attach()
    expected: dict[int, dict[str, int | None]] = {}

    def read_after_sampler(_step: int) -> None:
        if timer.ended_step is not None:
            expected[timer.ended_step] = memory_stats_fields(ctx.device)

    timer.add_step_callback(read_after_sampler)  # runs right after the sampler's: same point
    kept = []
    timer.set_step(0)
    for step in range(SAMPLER_STEPS):
        kept.append(torch.empty((step + 1) * 4 * MiB, dtype=torch.uint8, device=ctx.device))
        transient = torch.empty(64 * MiB, dtype=torch.uint8, device=ctx.device)
        del transient  # the peak stays above what is live
        if step % 3 == 2:
            kept.pop(0)
        timer.step()
    sampler.detach()
    timer.close()
    records = read_records(run_dir, "memory")
    device = f"cuda:{ctx.device.index}"
    mismatches = mem_mismatches(records, expected, device)
    measured = {
        "steps": len(expected),
        "records": len(records),
        "last_record": records[-1] if records else None,
        "last_memory_stats": expected.get(max(expected)) if expected else None,
        "mismatches": mismatches[:20],
    }
    problems = []
    if len(expected) != SAMPLER_STEPS:
        problems.append(f"{len(expected)} step boundaries sampled, not {SAMPLER_STEPS}")
    if mismatches:
        problems.append(f"{len(mismatches)} field(s) differ from memory_stats()")
    passed = f"{len(records)} records equal memory_stats() read at the same step boundaries"
    return verdict(problems, passed, measured)


# --- 4. MemorySnapshotter at a real OOM ---------------------------------------------------------

PEAK_TOLERANCE = (0.02, 4 * MiB)  # the trace's sizes are requested sizes, the stats' blocks


def provoke_oom(device: torch.device) -> tuple[dict[str, Any], str]:
    """Hold some tensors, free a larger one (a peak above what stays live), then ask for more
    than the whole device holds: the allocator's real OOM path runs, observers included. The
    allocator statistics read right after (nothing allocates in between) and the message."""
    kept = [torch.empty(size * MiB, dtype=torch.uint8, device=device) for size in (64, 128, 256)]
    transient = torch.empty(512 * MiB, dtype=torch.uint8, device=device)
    del transient
    _, total = torch.cuda.mem_get_info(device)
    try:
        torch.empty(total + GiB, dtype=torch.uint8, device=device)
    except torch.cuda.OutOfMemoryError as exc:
        message = str(exc).splitlines()[0][:300]
    else:
        raise AssertionError("allocating more than the device holds raised no OutOfMemoryError")
    stats = torch.cuda.memory_stats(device)
    del kept
    return stats, message


def snapshot_comparison(
    summary: dict[str, Any], stats: dict[str, Any], device_index: int
) -> tuple[dict[str, Any], list[str]]:
    """The plugin's summary of the OOM snapshot beside memory_stats() at the OOM, and what
    differs: segments, reserved and allocated bytes exactly, the peak within PEAK_TOLERANCE."""
    devices = [d for d in summary["devices"] if d["device"] == device_index] or summary["devices"]
    peak = devices[0]["peak"]["live_bytes"] if devices else None
    pairs = {
        "segments": (summary["segments"], stats.get("segment.all.current")),
        "reserved_bytes": (summary["reserved_bytes"], stats.get("reserved_bytes.all.current")),
        "allocated_bytes": (summary["allocated_bytes"], stats.get("allocated_bytes.all.current")),
        "peak_bytes": (peak, stats.get("allocated_bytes.all.peak")),
    }
    problems = [
        f"{name}: snapshot {got} vs memory_stats {want}"
        for name, (got, want) in pairs.items()
        if name != "peak_bytes" and got != want
    ]
    relative, absolute = PEAK_TOLERANCE
    got, want = pairs["peak_bytes"]
    if got is None or want is None or abs(got - want) > max(relative * want, absolute):
        problems.append(f"peak: snapshot {got} vs memory_stats {want}")
    if not summary["trace_entries"].get("oom"):
        problems.append("the snapshot's trace has no oom entry")
    compared = {name: {"snapshot": a, "memory_stats": b} for name, (a, b) in pairs.items()}
    return compared, problems


def check_snapshot_oom(ctx: Context) -> Verdict:
    from tb_perf_plugin.analysis.memory_snapshot import snapshot_summary
    from tb_perf_plugin.ingest.snapshot import read_snapshot

    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(ctx.device)
    writer = RunWriter(ctx.run_dir("snapshot_oom"))
    snapshotter = MemorySnapshotter(writer, enabled=True, dump_on_oom=True)
    try:
        with snapshotter.region("oom_check"):
            stats, message = provoke_oom(ctx.device)
    finally:
        snapshotter.close()
        writer.close()
    dumps = [Path(f) for f in snapshotter.files if ".snapshot.oom." in Path(f).name]
    measured: dict[str, Any] = {
        "oom_message": message,
        "num_ooms": stats.get("num_ooms"),
        "files": [Path(f).name for f in snapshotter.files],
    }
    if not dumps or not dumps[0].is_file():
        return Verdict("fail", "no oom snapshot was dumped at the OOM", measured)
    snap = read_snapshot(str(dumps[0]), MAX_READ_BYTES)
    summary = snapshot_summary(snap)
    compared, problems = snapshot_comparison(summary, stats, ctx.device.index)
    measured.update(
        format=summary["format"],
        time_unit=summary["time_unit"],
        file_bytes=summary["file_bytes"],
        trace_entries=summary["trace_entries"],
        compared=compared,
    )
    passed = (
        f"{dumps[0].name} read back ({summary['format']}): segments, reserved and allocated "
        "bytes equal memory_stats() at the OOM, peak within tolerance"
    )
    return verdict(problems, passed, measured)

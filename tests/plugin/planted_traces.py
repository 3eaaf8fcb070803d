"""GPU traces with a planted cause, built event by event in torch.profiler's JSON shape (cpu_op,
cuda_runtime, kernel and gpu_memcpy events joined by correlation ids), for the causes no CPU run
can record and no shared trace holds with a known cost: allocator churn (cudaFree inside the
step, what `torch.cuda.empty_cache()` in the loop does) and a blocking device-to-host copy
into pageable memory. Deterministic: the planted cost is known to the microsecond."""

from __future__ import annotations

from typing import Any

STEPS = 4
HOST, STREAM = {"pid": 1, "tid": 1}, {"pid": 0, "tid": 7}


class _Trace:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.correlation = 0

    def host(self, cat: str, name: str, ts: int, dur: int, **args: Any) -> None:
        self.events.append({"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur,
                            **HOST, "args": args})  # fmt: skip

    def device(self, cat: str, name: str, ts: int, dur: int, correlation: int) -> None:
        args = {"correlation": correlation, "stream": 7, "device": 0}
        self.events.append({"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur,
                            **STREAM, "args": args})  # fmt: skip

    def launch(self, op: str, ts: int, op_dur: int, kernel_ts: int, kernel_dur: int) -> None:
        """An op whose first 10 µs launch a kernel (at `ts + 2`)."""
        self.correlation += 1
        self.host("cpu_op", op, ts, op_dur)
        self.host("cuda_runtime", "cudaLaunchKernel", ts + 2, 10, correlation=self.correlation)
        self.device("kernel", f"{op}_kernel", kernel_ts, kernel_dur, self.correlation)

    def doc(self) -> dict[str, Any]:
        return {"schemaVersion": 1, "traceEvents": self.events}


# allocator churn: a step of 20 x (a 50 µs op launching a 100 µs kernel, then a 200 µs cudaFree)
CHURN_OPS, CHURN_OP_US, CHURN_KERNEL_US, CHURN_FREE_US = 20, 50, 100, 200
CHURN_STEP_US = CHURN_OPS * (CHURN_OP_US + CHURN_FREE_US) + CHURN_KERNEL_US
CHURN_PLANTED_US = CHURN_OPS * CHURN_FREE_US  # the frees' time a step
# what taking them away saves: the step shrinks to the GPU's own kernels back to back (they
# still run in stream order) after the 20 µs to the first one's start
CHURN_SAVED_US = CHURN_STEP_US - (20 + CHURN_OPS * CHURN_KERNEL_US)


def allocator_churn() -> dict[str, Any]:
    trace = _Trace()
    for step in range(STEPS):
        t0 = 1_000 + step * (CHURN_STEP_US + 100)
        trace.host("user_annotation", f"ProfilerStep#{step}", t0, CHURN_STEP_US)
        t = t0
        for _ in range(CHURN_OPS):
            trace.launch("aten::linear", t, CHURN_OP_US, t + 20, CHURN_KERNEL_US)
            trace.host("cuda_runtime", "cudaFree", t + CHURN_OP_US, CHURN_FREE_US)
            t += CHURN_OP_US + CHURN_FREE_US
    return trace.doc()


# a blocking copy: 5 ops launch 300 µs kernels back to back, then .cpu() of the result into
# pageable memory blocks the host until the kernels and the copy are done; 1.5 ms of host work
# follows that could have run beside them
COPY_OPS, COPY_KERNEL_US, COPY_US, AFTER_US = 5, 300, 70, 1_500
COPY_START_US = COPY_OPS * 50  # the copy's call starts after the launches
COPY_CALL_US = 20 + COPY_OPS * COPY_KERNEL_US + COPY_US - COPY_START_US + 5
COPY_STEP_US = COPY_START_US + 10 + COPY_CALL_US + AFTER_US


def blocking_copy() -> dict[str, Any]:
    trace = _Trace()
    for step in range(STEPS):
        t0 = 1_000 + step * (COPY_STEP_US + 100)
        trace.host("user_annotation", f"ProfilerStep#{step}", t0, COPY_STEP_US)
        for i in range(COPY_OPS):
            kernel_ts = t0 + 20 + i * COPY_KERNEL_US
            trace.launch("aten::linear", t0 + i * 50, 50, kernel_ts, COPY_KERNEL_US)
        copy_op = t0 + COPY_START_US
        trace.correlation += 1
        trace.host("cpu_op", "aten::copy_", copy_op, COPY_CALL_US + 10)
        trace.host("cuda_runtime", "cudaMemcpyAsync", copy_op + 5, COPY_CALL_US,
                   correlation=trace.correlation)  # fmt: skip
        trace.device("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)",
                     t0 + 20 + COPY_OPS * COPY_KERNEL_US, COPY_US, trace.correlation)  # fmt: skip
        trace.host("cpu_op", "optimizer_step", copy_op + COPY_CALL_US + 10, AFTER_US)
    return trace.doc()

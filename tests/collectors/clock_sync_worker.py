"""One rank of a clock-sync test job, started by the clock and alignment tests.

    python clock_sync_worker.py RUN_DIR (dist | tcp:PORT) SYNCS GAP_S [TRACED_STEPS]

Rank and world size come from RANK / WORLD_SIZE (and MASTER_ADDR / MASTER_PORT for `dist`), a
clock skew from TB_PERF_CLOCK_SKEW, as a launcher would set them. The rank syncs its clock
SYNCS times, GAP_S seconds apart, so drift can be measured. With TRACED_STEPS (needs `dist`),
the first gap holds that many steps recorded by `profile_steps`, each with two blocking
all_reduce calls.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from collectors import MyTimer, RunWriter, profile_steps, sync_clocks  # noqa: E402

ALL_REDUCES_PER_STEP = 2
FIRST_TRACED_STEP = 100  # after the sync steps' numbers


def traced_steps(timer: MyTimer, steps: int) -> None:
    import torch
    import torch.distributed as dist

    weights = torch.randn(256, 256)
    timer.set_step(FIRST_TRACED_STEP)  # the profiler counts its schedule from here
    with profile_steps(timer, wait=0, warmup=1, active=steps):
        for step in range(FIRST_TRACED_STEP, FIRST_TRACED_STEP + steps + 2):
            timer.set_step(step)
            with timer.range("compute"):
                grad = torch.tanh(weights @ weights).sum(dim=0)
                time.sleep(0.005)  # idle cores: collective ends are not delayed by scheduling
            with timer.range("all_reduce"):
                for _ in range(ALL_REDUCES_PER_STEP):
                    dist.all_reduce(grad)
        timer.step()


def main() -> None:
    run_dir, method, syncs, gap_s = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    traced = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    address = None
    if method == "dist":
        import torch.distributed as dist

        dist.init_process_group("gloo")
    else:
        address = ("127.0.0.1", int(method.split(":")[1]))
    with RunWriter(run_dir) as writer, MyTimer(writer, gpu=False) as timer:
        for i in range(syncs):
            if i:
                if i == 1 and traced:
                    traced_steps(timer, traced)
                time.sleep(gap_s)
            with timer.range("sync_clocks"):
                sync_clocks(writer, address=address, rounds=32)
            timer.step()
    if method == "dist":
        dist.destroy_process_group()


if __name__ == "__main__":
    main()

"""One rank of a clock-sync test job, started by tests/collectors/test_clock.py.

    python clock_sync_worker.py RUN_DIR (dist | tcp:PORT) SYNCS GAP_S

Rank and world size come from RANK / WORLD_SIZE (and MASTER_ADDR / MASTER_PORT for `dist`), a
clock skew from TB_PERF_CLOCK_SKEW, as a launcher would set them. The rank syncs its clock
SYNCS times, GAP_S seconds apart, so drift can be measured.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from collectors import MyTimer, RunWriter, sync_clocks  # noqa: E402


def main() -> None:
    run_dir, method, syncs, gap_s = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    address = None
    if method == "dist":
        import torch.distributed as dist

        dist.init_process_group("gloo")
    else:
        address = ("127.0.0.1", int(method.split(":")[1]))
    with RunWriter(run_dir) as writer, MyTimer(writer, gpu=False) as timer:
        for i in range(syncs):
            if i:
                time.sleep(gap_s)
            with timer.range("sync_clocks"):
                sync_clocks(writer, address=address, rounds=32)
            timer.step()
    if method == "dist":
        dist.destroy_process_group()


if __name__ == "__main__":
    main()

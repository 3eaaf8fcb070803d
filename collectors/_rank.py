"""Which rank this process is, found the way launchers announce it."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

# Launcher environment variables, in the order docs/ARCHITECTURE.md (contracts) fixes: torchrun,
# SLURM, Open MPI, PMI.
_ENV_PAIRS = (
    ("RANK", "WORLD_SIZE", "LOCAL_RANK", "torchrun"),
    ("SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "slurm"),
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "openmpi"),
    ("PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "pmi"),
)


@dataclass(frozen=True)
class RankInfo:
    rank: int
    world_size: int
    local_rank: int
    # "torch.distributed", "torchrun", "slurm", "openmpi", "pmi", "default" or "explicit"
    source: str


def _int_env(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name)
    if value is None or not value.strip().lstrip("-").isdigit():
        return None
    return int(value)


def detect_rank(env: Mapping[str, str] | None = None) -> RankInfo:
    """Rank and world size from an initialized torch.distributed group, else launcher variables.

    torch is looked at only if the program already imported it: an initialized process group
    implies that, and importing torch here would cost seconds in processes that never use it.
    """
    if env is None:
        env = os.environ
    dist = sys.modules.get("torch.distributed")
    if dist is not None and dist.is_available() and dist.is_initialized():
        local = _int_env(env, "LOCAL_RANK")
        return RankInfo(dist.get_rank(), dist.get_world_size(), local or 0, "torch.distributed")
    for rank_var, size_var, local_var, source in _ENV_PAIRS:
        rank, size = _int_env(env, rank_var), _int_env(env, size_var)
        if rank is not None and size is not None and 0 <= rank < size:
            return RankInfo(rank, size, _int_env(env, local_var) or 0, source)
    return RankInfo(0, 1, 0, "default")

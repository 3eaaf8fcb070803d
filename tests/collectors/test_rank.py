import pytest

from collectors import RankInfo, detect_rank


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, RankInfo(0, 1, 0, "default")),
        ({"RANK": "3", "WORLD_SIZE": "8", "LOCAL_RANK": "1"}, RankInfo(3, 8, 1, "torchrun")),
        (
            {"SLURM_PROCID": "5", "SLURM_NTASKS": "16", "SLURM_LOCALID": "1"},
            RankInfo(5, 16, 1, "slurm"),
        ),
        ({"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"}, RankInfo(2, 4, 0, "openmpi")),
        ({"PMI_RANK": "1", "PMI_SIZE": "2"}, RankInfo(1, 2, 0, "pmi")),
        # torchrun's variables win over SLURM's (torchrun under SLURM sets both)
        (
            {"RANK": "1", "WORLD_SIZE": "2", "SLURM_PROCID": "0", "SLURM_NTASKS": "1"},
            RankInfo(1, 2, 0, "torchrun"),
        ),
        # a malformed or inconsistent pair is skipped, not trusted
        (
            {"RANK": "x", "WORLD_SIZE": "2", "PMI_RANK": "1", "PMI_SIZE": "2"},
            RankInfo(1, 2, 0, "pmi"),
        ),
        ({"RANK": "4", "WORLD_SIZE": "2"}, RankInfo(0, 1, 0, "default")),
    ],
)
def test_launcher_variables_in_documented_order(env, expected):
    assert detect_rank(env) == expected


def test_initialized_process_group_wins(tmp_path):
    dist = pytest.importorskip("torch.distributed")
    if not dist.is_available():
        pytest.skip("torch.distributed is not available in this torch build")
    dist.init_process_group(
        "gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1
    )
    try:
        info = detect_rank({"RANK": "3", "WORLD_SIZE": "8"})
    finally:
        dist.destroy_process_group()
    assert (info.rank, info.world_size, info.source) == (0, 1, "torch.distributed")

import numpy as np
import pytest

from tb_perf_plugin.analysis.align import (
    Alignment,
    Method,
    RankClockEvidence,
    align_ranks,
    fit,
    match_collectives,
)

RNG = np.random.default_rng(7)
T0 = 1_700_000_000_000_000_000


def _collectives(ends, name="allreduce", group="0", size=1024):
    return [((name, group, size), int(e)) for e in ends]


def test_fit_recovers_offset_and_drift_within_its_uncertainty():
    own = T0 + np.sort(RNG.integers(0, 60 * 10**9, 40))  # a minute of collectives
    offset, drift = 250_000_000, 40_000.0  # +250 ms, +40 ppm (ns per s)
    jitter = RNG.integers(-20_000, 20_000, len(own))  # ring latency: ±20 µs
    ref = own + offset + np.rint((own - own[0]) * drift / 1e9).astype(np.int64) + jitter
    fitted = fit(1, Method.COLLECTIVES, ref[::2], own[::2])  # fit on half...
    assert fitted.drift_ns_per_s == pytest.approx(drift, rel=0.05)
    mapped = fitted.apply(own[1::2])  # ...and the other half lands within the uncertainty
    assert np.abs(mapped - ref[1::2]).max() <= fitted.uncertainty_ns
    assert fitted.uncertainty_ns < 200_000


def test_offset_only_when_there_is_no_drift():
    own = T0 + np.arange(5) * 10**9
    fitted = fit(1, Method.STEPS, own - 1234, own)
    assert (fitted.offset_ns, fitted.drift_ns_per_s) == (-1234, None)
    assert fitted.apply(own).tolist() == (own - 1234).tolist()


def test_point_to_point_is_never_sequence_matched():
    sends = _collectives(T0 + np.arange(10) * 1000, name="ncclKernel_SendRecv")
    ref, own = match_collectives(sends, sends)
    assert len(ref) == len(own) == 0
    evidence = [RankClockEvidence(0, collectives=sends), RankClockEvidence(1, collectives=sends)]
    assert align_ranks(evidence)[1].method is Method.NONE


def test_kth_instance_pairs_with_kth_per_signature():
    a = _collectives([10, 30], size=1) + _collectives([20], size=2)
    b = _collectives([110], size=2) + _collectives([100, 130], size=1)
    ref, own = match_collectives(a, b)
    assert sorted(zip(own.tolist(), ref.tolist(), strict=True)) == [(100, 10), (110, 20), (130, 30)]


def test_preference_clock_sync_then_collectives_then_steps():
    ends = T0 + np.arange(0, 10**9, 10**8)
    sync = {
        "offset_ns": 5,
        "uncertainty_ns": 3,
        "drift_ns_per_s": None,
        "measured_at_unix_ns": T0,
        "rounds": 8,
    }
    steps = {s: int(T0 + s * 10**8) for s in range(5)}
    reference = RankClockEvidence(0, collectives=_collectives(ends), step_starts=steps)
    with_all = RankClockEvidence(1, sync, _collectives(ends - 7), steps)
    no_sync = RankClockEvidence(2, None, _collectives(ends - 7), steps)
    steps_only = RankClockEvidence(3, None, None, {s: t - 9 for s, t in steps.items()})
    result = align_ranks([reference, with_all, no_sync, steps_only])
    assert result[0] == Alignment(0, Method.REFERENCE)
    assert (result[1].method, result[1].offset_ns) == (Method.CLOCK_SYNC, 5)
    assert (result[2].method, result[2].offset_ns) == (Method.COLLECTIVES, 7)
    assert (result[3].method, result[3].offset_ns) == (Method.STEPS, 9)


def test_evidence_is_taken_in_rank_order_one_rank_at_a_time():
    """align_ranks takes the ranks' evidence as it is made (pipeline/steps.py align_run makes
    it a rank at a time): each rank is aligned to the first, and evidence out of rank order
    is refused rather than aligned to the wrong reference."""
    ends = T0 + np.arange(0, 10**9, 10**8)
    taken = []

    def evidence():
        for rank in range(4):
            taken.append(rank)
            yield RankClockEvidence(rank, collectives=_collectives(ends - 3 * rank))

    result = align_ranks(evidence())
    assert taken == [0, 1, 2, 3]
    assert [result[r].offset_ns for r in range(4)] == [0, 3, 6, 9]
    late = [RankClockEvidence(1, collectives=_collectives(ends)),
            RankClockEvidence(0, collectives=_collectives(ends))]  # fmt: skip
    with pytest.raises(ValueError, match="rank 0's evidence after rank 1's"):
        align_ranks(late)

"""The window scheduler's state machine, with a backend that only records the calls it gets."""

import logging

import pytest

from collectors import Phase, Schedule, WindowScheduler


class RecordingBackend:
    def __init__(self, fail_on: str | None = None) -> None:
        self.calls: list[tuple] = []
        self.fail_on = fail_on

    def _record(self, *call) -> None:
        self.calls.append(call)
        if call[0] == self.fail_on:
            raise RuntimeError(f"{call[0]} failed on purpose")

    def prepare(self):
        self._record("prepare")

    def start(self, step):
        self._record("start", step)

    def step(self, step):
        self._record("step", step)

    def stop(self, first_step, last_step):
        self._record("stop", first_step, last_step)

    def cancel(self):
        self._record("cancel")

    def close(self):
        self._record("close")


def run(schedule: Schedule, steps, **kwargs) -> list[tuple]:
    backend = RecordingBackend()
    scheduler = WindowScheduler(backend, schedule, **kwargs)
    for step in steps:
        scheduler.begin_step(step)
    scheduler.close()
    return backend.calls


def test_phases_follow_torch_profiler_schedule():
    schedule = Schedule(skip_first=2, wait=1, warmup=1, active=2, repeat=2)
    phases = [schedule.phase(i)[0].name[0] for i in range(12)]
    # skip skip | wait warmup active active | wait warmup active active | done ...
    assert "".join(phases) == "NNNWAANWAADD"
    assert [schedule.phase(i)[1] for i in (4, 5, 8, 9)] == [0, 0, 1, 1]
    assert Schedule(wait=0, warmup=0, active=1, repeat=0).phase(10**6) == (Phase.ACTIVE, 10**6)


def test_windows_prepare_start_step_and_stop_at_step_boundaries():
    calls = run(Schedule(skip_first=1, wait=1, warmup=1, active=3, repeat=2), range(100, 115))
    assert calls == [
        ("prepare",),  # step 102 (warmup)
        ("start", 103),
        ("step", 104),
        ("step", 105),
        ("stop", 103, 105),  # at the start of step 106
        ("prepare",),  # step 107
        ("start", 108),
        ("step", 109),
        ("step", 110),
        ("stop", 108, 110),
        ("close",),  # repeat=2 reached: nothing else
    ]


def test_repeated_step_numbers_are_one_step():
    once = run(Schedule(wait=1, warmup=0, active=2), [0, 1, 2, 3])
    twice = run(Schedule(wait=1, warmup=0, active=2), [0, 0, 1, 1, 2, 2, 3, 3])
    assert once == twice == [("prepare",), ("start", 1), ("step", 2), ("stop", 1, 2), ("close",)]


def test_back_to_back_windows_without_wait_or_warmup():
    calls = run(Schedule(wait=0, warmup=0, active=2, repeat=2), range(5))
    assert calls == [
        ("prepare",),
        ("start", 0),
        ("step", 1),
        ("stop", 0, 1),
        ("prepare",),
        ("start", 2),
        ("step", 3),
        ("stop", 2, 3),
        ("close",),
    ]


def test_close_writes_the_window_under_way_and_cancels_a_prepared_one():
    recording = run(Schedule(wait=0, warmup=1, active=5), range(3))
    assert recording[-2:] == [("stop", 1, 2), ("close",)]
    prepared = run(Schedule(wait=1, warmup=1, active=5), range(2))
    assert prepared == [("prepare",), ("cancel",), ("close",)]


def test_step_numbers_that_jump_past_a_window():
    # prepared at step 1, then the numbering jumps past the active steps: cancel, no file
    calls = run(Schedule(wait=1, warmup=1, active=2, repeat=2), [0, 1, 9])
    assert calls[:2] == [("prepare",), ("cancel",)]
    # a jump into the middle of an active window starts it there
    calls = run(Schedule(wait=2, warmup=1, active=4, repeat=1), [0, 4, 5, 9])
    assert calls == [("prepare",), ("start", 4), ("step", 5), ("stop", 4, 5), ("close",)]


def test_ranks_outside_the_set_never_capture():
    schedule = Schedule(wait=0, warmup=0, active=1)
    assert run(schedule, range(3), rank=1, ranks={0}) == [("close",)]
    assert run(schedule, range(3), rank=0, ranks={0})[:2] == [("prepare",), ("start", 0)]
    assert WindowScheduler(RecordingBackend(), schedule, rank=3, ranks=[1, 2]).done


def test_a_failing_backend_is_logged_and_capturing_stops(caplog):
    backend = RecordingBackend(fail_on="start")
    scheduler = WindowScheduler(backend, Schedule(wait=0, warmup=1, active=2, repeat=0))
    with caplog.at_level(logging.WARNING, logger="collectors._schedule"):
        for step in range(8):
            scheduler.begin_step(step)  # must not raise
    scheduler.close()
    assert backend.calls == [("prepare",), ("start", 1), ("cancel",), ("close",)]
    assert scheduler.done
    assert "start(1,) failed; capturing stops, training goes on" in caplog.text


@pytest.mark.parametrize(
    "kwargs, message",
    [({"active": 0}, "active must be >= 1"), ({"wait": -1}, "wait must be >= 0")],
)
def test_invalid_schedules_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Schedule(**kwargs)

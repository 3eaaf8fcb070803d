"""Measured data-loading wait: a wrapper around any iterable of batches (a DataLoader) that
times each fetch as a MyTimer span and records the loader's settings in the run metadata."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from typing import Any, TypeVar

from ._timer import MyTimer

_Batch = TypeVar("_Batch")
SPAN_NAME = "dataloader"
# DataLoader attributes that decide how fast batches arrive
_SETTINGS = ("num_workers", "pin_memory", "prefetch_factor", "persistent_workers", "batch_size")


def loader_settings(loader: object) -> dict[str, Any]:
    """The DataLoader settings that shape input throughput (those the object has)."""
    settings: dict[str, Any] = {"type": type(loader).__name__}
    for name in _SETTINGS:
        value = getattr(loader, name, None)
        if isinstance(value, (bool, int, float, str)):
            settings[name] = value
    return settings


class TimedLoader(Iterable[_Batch]):
    """Iterate `loader` as usual; every wait for the next batch becomes a top-level span
    (`dataloader` by default) of the timer's current step.

    Usage::

        for x, y in timed_loader(loader, timer):
            ...                 # forward, backward, optimizer
            timer.step()        # end the step here: the next wait belongs to the next step

    With `timer.set_step(n)` at the top of the loop body instead, a batch's wait is recorded in
    the step before the one that uses it.
    """

    def __init__(self, loader: Iterable[_Batch], timer: MyTimer, name: str = SPAN_NAME) -> None:
        self.loader = loader
        self.timer = timer
        self.name = name
        if timer.enabled:
            timer.writer.update_metadata(dataloader=loader_settings(loader))

    def __len__(self) -> int:
        loader = self.loader
        if not isinstance(loader, Sized):  # what len() itself says of it
            raise TypeError(f"object of type {type(loader).__name__!r} has no len()")
        return len(loader)

    def __iter__(self) -> Iterator[_Batch]:
        if not self.timer.enabled:  # the loader's own iterator: nothing added per batch
            return iter(self.loader)
        return self._timed()

    def _timed(self) -> Iterator[_Batch]:
        timer, name = self.timer, self.name
        batches = iter(self.loader)
        while True:
            timer.start(name)
            try:
                batch = next(batches)
            except StopIteration:
                return
            finally:  # closed whatever happens: the end of the data, or the loader's error
                timer.stop(name)
            yield batch


def timed_loader(loader: Iterable[_Batch], timer: MyTimer, name: str = SPAN_NAME) -> TimedLoader:
    """`TimedLoader(loader, timer, name)`: see its docstring."""
    return TimedLoader(loader, timer, name)

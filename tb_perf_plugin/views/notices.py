"""The notices route: what discovery left out of the logdir and of every run (links out of
it without the owner's opt-in, folders that cannot be listed), so that a missing run is
explained where the user looks, not only in TensorBoard's log."""

from __future__ import annotations

from typing import Any

from ..store import RunStore

MAX_NOTICES = 50  # listed in an answer; `total` counts them all


def notices(store: RunStore) -> dict[str, Any]:
    """Each path left out by its path relative to the logdir (never an absolute path, nor a
    link's target), its kind and why (docs/HTTP_API.md)."""
    left_out, total = store.left_out_counted()
    return {
        "notices": [
            {"path": item.path, "kind": item.kind, "message": item.reason}
            for item in left_out[:MAX_NOTICES]
        ],
        "total": total,
    }

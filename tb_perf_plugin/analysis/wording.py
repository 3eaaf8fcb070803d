"""How the analysis puts numbers and names in words, shared with the text and HTML renderers
(text.py, report.py). Imports nothing beyond the standard library, so `tb-perf analyze`
answered from its cache renders without numpy or pandas."""

from __future__ import annotations

# the operator time columns and their labels, in the order the tables show them
OPERATOR_TIMES = {
    "host_self_ns": "host self",
    "host_total_ns": "host total",
    "device_self_ns": "device self",
    "device_total_ns": "device total",
}

# More ranks than this with the same finding make one finding naming them all.
MAX_RANKS_APART = 4


def memory_text(n: float) -> str:
    """Bytes in binary units, as allocators and nvidia-smi count them."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if abs(n) >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{n:.0f} B"

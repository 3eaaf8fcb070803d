"""The memory snapshot viewer's tiles: the stacked live allocations of one device over a
window, at a pixel width, as bounded JSON (the timeline's tile protocol; docs/ANALYSIS.md,
"Memory snapshots"). Pure functions over `ingest.snapshot.Snapshot` tables."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..errors import InvalidArgument
from ..ingest.snapshot import Snapshot
from .memory_snapshot import device_timeline, group_label, group_of

# Tiles: one answer is at most TILE_BYTES of JSON (as json.dumps writes it). At most MAX_BANDS
# allocations are drawn as bands, the largest first, as many as fit; the rest of what is live
# shows as the per-pixel maximum of total live bytes above the drawn bands.
TILE_BYTES = 1_000_000
MAX_BANDS = 2000
MAX_WIDTH_PX = 8192
_TILE_HEADER_BYTES = 1_000  # keys, scalars and brackets of the answer
# Tile windows lie within +-TIME_LIMIT_NS: with trace times within +-2^62
# (ingest.snapshot.MAX_TIME_NS) every difference of two times stays within int64
TIME_LIMIT_NS = 2**62 - 2


def _json_len(values: np.ndarray) -> np.ndarray:
    """Characters of each integer as json.dumps writes it, plus its ", " separator."""
    v = np.asarray(values, dtype=np.int64)
    magnitude = np.abs(v.astype(np.float64))
    digits = np.floor(np.log10(np.maximum(magnitude, 1.0))).astype(np.int64) + 1
    return digits + (v < 0) + 2


def _pixel_max(t: np.ndarray, v: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Per pixel [edges[k], edges[k+1]), the maximum of the step function (t, v) (value v[i]
    from t[i] on; 0 before t[0]); t sorted."""
    w = len(edges) - 1
    if not len(t):
        return np.zeros(w, np.int64)
    at_start = np.searchsorted(t, edges[:-1], "right") - 1
    out = np.where(at_start >= 0, v[np.maximum(at_start, 0)], 0).astype(np.int64)
    lo, hi = np.searchsorted(t, edges[0], "left"), np.searchsorted(t, edges[-1], "left")
    if hi > lo:
        px = _pixel_of(t[lo:hi], edges)
        first = np.flatnonzero(np.concatenate(([True], px[1:] != px[:-1])))
        top = np.maximum.reduceat(v[lo:hi], first)
        out[px[first]] = np.maximum(out[px[first]], top)
    return out


def _edges(t0: int, t1: int, width: int) -> np.ndarray:
    """Pixel k of a tile covers [edges[k], edges[k+1]) with edges[k] = t0 + ceil(k (t1 - t0) /
    width), in exact integer arithmetic."""
    span = t1 - t0
    return np.array([t0 + -(-k * span // width) for k in range(width + 1)], dtype=np.int64)


def _pixel_of(t: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The pixel of each time in [edges[0], edges[-1]) (the last k with edges[k] <= t, i.e.
    floor((t - t0) width / span)): integer arithmetic in one pass where it cannot overflow,
    else in floats corrected by one pixel where rounding put a time across an edge."""
    w = len(edges) - 1
    t0, span = int(edges[0]), int(edges[-1]) - int(edges[0])
    if span * w < 2**63:
        return (t - t0) * w // span
    px = np.clip(np.floor((t - t0) / (span / w)).astype(np.int64), 0, w - 1)
    px += (px < w - 1) & (edges[np.minimum(px + 1, w)] <= t)
    px -= (px > 0) & (edges[px] > t)
    return px


def _bands(
    s: np.ndarray, vs: np.ndarray, ve: np.ndarray, edges: np.ndarray, t1: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stacked offsets of bands in stack order: y0 (offset at the band's visible start) and its
    steps (band, pixel, offset from that pixel's end on). A band sits on the bands below it
    that are live: its offset only drops, when one of them ends; drops are drawn at the end of
    the pixel they happen in (at most one step per band and pixel)."""
    n = len(s)
    ends_in = np.flatnonzero(ve < t1)
    # offset at the visible start: sizes of bands below still live then (those that ended
    # before it are all below it)
    by_end = np.argsort(ve, kind="stable")
    ended = np.concatenate(([0], np.cumsum(s[by_end])))
    below = np.concatenate(([0], np.cumsum(s)[:-1]))
    y0 = below - ended[np.searchsorted(ve[by_end], vs, "right")]
    if not len(ends_in):
        return y0, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    px_end = np.searchsorted(edges, ve[ends_in], "right") - 1
    pixels, first = np.unique(px_end, return_inverse=True)
    lowest = np.full(len(pixels), n, np.int64)
    np.minimum.at(lowest, first.reshape(-1), ends_in)
    t_after = edges[pixels + 1]
    out_band, out_px, out_y = [], [], []
    chunk = max(1, 1_000_000 // max(n, 1))
    pos = np.arange(n)
    for c in range(0, len(pixels), chunk):
        T = t_after[c : c + chunk, None]
        live = (vs[None, :] <= T) & (ve[None, :] > T)
        y = np.cumsum(np.where(live, s[None, :], 0), axis=1) - np.where(live, s[None, :], 0)
        want = (lowest[c : c + chunk, None] < pos[None, :]) & (vs[None, :] < T) & (ve > T)
        r, i = np.nonzero(want)
        out_band.append(i)
        out_px.append(pixels[c + r])
        out_y.append(y[r, i])
    band, px, y = (np.concatenate(x).astype(np.int64) for x in (out_band, out_px, out_y))
    order = np.lexsort((px, band))
    band, px, y = band[order], px[order], y[order]
    prev = np.concatenate(([-1], y[:-1]))
    first_of_band = np.concatenate(([True], band[1:] != band[:-1]))
    prev = np.where(first_of_band, y0[band], prev)
    keep = y != prev
    return y0, band[keep], px[keep], y[keep]


def snapshot_tile(
    snap: Snapshot, device: int, t0_ns: int, t1_ns: int, width_px: int
) -> dict[str, Any]:
    """Stacked live allocations in [t0_ns, t1_ns) at `width_px` pixels, as PyTorch's memory
    viewer draws them: each allocation a band of its size at a stacked offset while live.

    Allocations live for less than a pixel in the window, and the smaller ones beyond what the
    byte budget holds (at most MAX_BANDS), are not drawn as bands: `pixels.total_max` (the
    maximum of all live bytes in each pixel) shows them above the drawn bands'
    `pixels.drawn_max`. The JSON answer is at most TILE_BYTES long."""
    t0, t1, width = int(t0_ns), int(t1_ns), int(width_px)
    if not 1 <= width <= MAX_WIDTH_PX:
        raise InvalidArgument(f"width_px must be in 1..{MAX_WIDTH_PX}, got {width_px}")
    if t1 <= t0:
        raise InvalidArgument(f"t1_ns ({t1_ns}) must be after t0_ns ({t0_ns})")
    if t0 < -TIME_LIMIT_NS or t1 > TIME_LIMIT_NS:
        raise InvalidArgument("the window reaches beyond +-2^62 ns (146 years) from the epoch")
    d = device_timeline(snap, device)
    a = d.allocations
    ns_per_px = (t1 - t0) / width
    edges = _edges(t0, t1, width)
    t_alloc, t_free = a["t_alloc"].to_numpy(), a["t_free"].to_numpy()
    size = a["size"].to_numpy()
    vs, ve = np.maximum(t_alloc, t0), np.minimum(t_free, t1)
    visible = np.flatnonzero(ve > vs)
    wide = visible[(ve[visible] - vs[visible]) >= ns_per_px]
    if len(wide) > MAX_BANDS:
        keep = np.argpartition(-size[wide], MAX_BANDS - 1)[:MAX_BANDS]
        wide = np.sort(wide[keep])
    series = d.series
    t, v = series["t_ns"].to_numpy(), series["bytes"].to_numpy()
    if len(t) > 1 and np.any(t[1:] < t[:-1]):  # clock steps back: order by time
        order = np.argsort(t, kind="stable")
        t, v = t[order], np.cumsum(np.concatenate(([v[0]], np.diff(v)))[order])
    total_max = _pixel_max(t, v, edges)
    labels_of = group_of(snap, a["stack"].to_numpy()[wide])

    def drawn_max(rows: np.ndarray) -> np.ndarray:
        ev_t = np.concatenate((vs[rows], ve[rows]))
        ev_d = np.concatenate((size[rows], -size[rows]))
        order = np.argsort(ev_t, kind="stable")
        return _pixel_max(ev_t[order], np.cumsum(ev_d[order]), edges)

    budget = TILE_BYTES - _TILE_HEADER_BYTES - int(_json_len(total_max).sum()) * 2
    # Each band's cost with every candidate drawn bounds its cost in any subset (fewer bands
    # below: fewer steps, smaller offsets); a label is charged to the first band using it.
    bands = _bands(size[wide], vs[wide], ve[wide], edges, t1)
    by_size = np.argsort(-size[wide], kind="stable")
    cost = _band_costs(wide, size[wide], vs[wide], ve[wide], bands)[by_size]
    keys, first_use = np.unique(labels_of[by_size], return_index=True)
    cost[first_use] += np.array(
        [len(json.dumps(group_label(snap, int(k)))) + 2 for k in keys.tolist()], dtype=np.int64
    )
    fits = int(np.searchsorted(np.cumsum(cost), budget, "right"))
    rows = wide
    if fits < len(wide):
        chosen = np.sort(by_size[:fits])
        rows, labels_of = wide[chosen], labels_of[chosen]
        bands = _bands(size[rows], vs[rows], ve[rows], edges, t1)
    y0, step_band, step_px, step_y = bands
    label_keys, label_index = np.unique(labels_of, return_inverse=True)
    return {
        "device": device,
        "time_unit": snap.time_unit,
        "t0": t0,
        "t1": t1,
        "width_px": width,
        "ns_per_px": ns_per_px,
        "visible": len(visible),
        "drawn": len(rows),
        "merged": len(visible) - len(rows),
        "labels": [group_label(snap, int(k)) for k in label_keys],
        "bands": {
            "id": rows.tolist(),
            "size": size[rows].tolist(),
            "start": vs[rows].tolist(),
            "end": ve[rows].tolist(),
            "y0": y0.tolist(),
            "label": label_index.reshape(-1).tolist(),
            "steps": np.bincount(step_band, minlength=len(rows)).tolist(),
        },
        "steps": {"px": step_px.tolist(), "y": step_y.tolist()},
        "pixels": {"total_max": total_max.tolist(), "drawn_max": drawn_max(rows).tolist()},
    }


def _band_costs(
    rows: np.ndarray,
    size: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    bands: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> np.ndarray:
    """JSON bytes each band adds to a tile's `bands` and `steps` columns (labels aside)."""
    y0, step_band, step_px, step_y = bands
    steps = np.bincount(step_band, minlength=len(rows))
    cost = (
        _json_len(rows) + _json_len(size) + _json_len(start) + _json_len(end) + _json_len(y0)
        + _json_len(steps) + 6  # label index (< 10**4) and its separator
    )  # fmt: skip
    np.add.at(cost, step_band, _json_len(step_px) + _json_len(step_y))
    return cost

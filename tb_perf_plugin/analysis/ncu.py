"""Nsight Compute metrics joined to the Kernel view's per-name table.

A trace names a kernel by its full demangled signature (`void at::native::foo<4, ...>(int,
...)`); ncu prints the same, or the signature without arguments, or only the base name (`foo`,
`ampere_sgemm_128x64_nn`), depending on `--print-kernel-base` and version. An NCU name is
matched to trace names at the most specific of three levels at which it finds any:

1. `exact`: the same text (whitespace runs folded);
2. `name`: the same text once each side's trailing argument list `(...)` is dropped;
3. `base name`: the same function name once the argument list, template arguments `<...>`,
   return type and namespaces are dropped.

A level that finds more than one trace name (several template instances sharing a base name)
matches none: the NCU kernel is reported `ambiguous`, as one it cannot find is `unmatched`.
Both stay in the output as rows of their own (no trace time), never dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from ..ingest.ncu import METRIC_COLUMNS

NCU_JOIN_COLUMNS = ["ncu_launches", *(f"ncu_{c}" for c in METRIC_COLUMNS), "ncu_match"]
_SPACES = re.compile(r"\s+")


def _folded(name: str) -> str:
    return _SPACES.sub(" ", name).strip()


def _without_arguments(name: str) -> str:
    """`name` less its trailing balanced `(...)`, if it ends with one."""
    name = _folded(name)
    if not name.endswith(")"):
        return name
    depth = 0
    for index in range(len(name) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[index], 0)
        if depth == 0:
            return name[:index].rstrip()
    return name


def _base_name(name: str) -> str:
    """The bare function name: no arguments, templates, return type or namespaces."""
    text, depth, kept = _without_arguments(name), 0, []
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">" and depth:
            depth -= 1
        elif depth == 0:
            kept.append(char)
    words = "".join(kept).split()
    return words[-1].rsplit("::", 1)[-1] if words else ""


_LEVELS: list[tuple[str, Callable[[str], str]]] = [
    ("exact", _folded),
    ("name", _without_arguments),
    ("base name", _base_name),
]


def match_kernel_names(ncu_names: list[str], trace_names: list[str]) -> dict[str, tuple[str, str]]:
    """Per NCU name: (trace name or "", how: "exact" | "name" | "base name" | "ambiguous" |
    "unmatched"), by the rule in the module docstring."""
    indexes = []
    for _, key in _LEVELS:
        index: dict[str, list[str]] = {}
        for trace_name in trace_names:
            index.setdefault(key(trace_name), []).append(trace_name)
        indexes.append(index)
    out = {}
    for ncu_name in ncu_names:
        out[ncu_name] = ("", "unmatched")
        for (level, key), index in zip(_LEVELS, indexes, strict=True):
            found = index.get(key(ncu_name), [])
            if len(found) == 1:
                out[ncu_name] = (found[0], level)
                break
            if len(found) > 1:
                out[ncu_name] = ("", "ambiguous")
                break
    return out


def join_kernel_metrics(kernels: pd.DataFrame, metrics: pd.DataFrame) -> pd.DataFrame:
    """`kernels` (aggregate_kernels' table, one row per trace kernel name) with NCU_JOIN_COLUMNS
    added: the launches ncu profiled under each name, the mean of each metric over them (NaN
    where none reported it) and `ncu_match` (how the names matched; "" for trace kernels ncu
    did not profile). `metrics` is read_ncu_csv's table. NCU kernels that match no trace name
    follow as extra rows named as ncu names them, with 0 calls and `ncu_match` "unmatched" or
    "ambiguous"."""
    matches = match_kernel_names(
        list(dict.fromkeys(metrics["kernel"].tolist())), kernels["name"].tolist()
    )
    target = metrics["kernel"].map(lambda n: matches[n][0] or n)
    how = metrics["kernel"].map(lambda n: matches[n][1])
    means = metrics[METRIC_COLUMNS].groupby(target, sort=False).mean()
    per_name = pd.DataFrame({
        "ncu_launches": target.groupby(target, sort=False).size(),
        **{f"ncu_{c}": means[c] for c in METRIC_COLUMNS},
        "ncu_match": how.groupby(target, sort=False).first(),
    })  # fmt: skip
    table = kernels.merge(per_name, left_on="name", right_index=True, how="left")
    unmatched = per_name[per_name["ncu_match"].isin(["unmatched", "ambiguous"])]
    if len(unmatched):
        extra = unmatched.rename_axis("name").reset_index()
        extra["calls"] = 0
        extra["total_ns"] = 0
        extra["tensor_cores"] = False
        table = pd.concat([table, extra], ignore_index=True)
    table["ncu_launches"] = table["ncu_launches"].fillna(0).astype(np.int64)
    table["ncu_match"] = table["ncu_match"].fillna("")
    return table.reset_index(drop=True)

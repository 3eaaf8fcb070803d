"""`tb-perf analyze`'s answers kept on disk (beside the derived results, `<cache dir>/results/`),
so a run analysed before is answered again without importing numpy, pandas, the store or the
views: discovery, the run's file versions, one JSON file and the text rendering.

The key is the command line's run arguments (and the directory they are relative to), the
run's version (its files', and its snapshots' sizes and modification times), and this code
(`cache_keys.code_fingerprint`); the output format is applied after, so every format is
answered from one entry. A run whose files are still being written is not kept.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .discovery import Run, command_line_root, command_line_run, discover, file_version
from .ingest.cache_dir import default_cache_dir
from .ingest.files import follow_links_from_env
from .pipeline.cache_keys import entry_name, still_written
from .remote import is_remote, local_path

_ANSWER = "analyze.json"


def answer_entry(args: argparse.Namespace, run: Run) -> Path | None:
    """Where the answer for these arguments and the run's version now is kept (None while the
    run's files are still being written: not kept). Taken before an analysis, so a file that
    changes meanwhile makes the next call miss rather than get an older answer."""
    signature = run.signature()
    if still_written(signature):
        return None
    snapshots = tuple((path, *file_version(path)) for path in sorted(run.snapshots))
    arguments = (os.getcwd(), args.run, args.logdir, args.job, args.rank, args.top)
    settings = (os.environ.get("TB_PERF_MAX_FILE_MB"), follow_links_from_env())  # as the store's
    name = entry_name("analyze", arguments, settings, signature, snapshots)
    return default_cache_dir() / "results" / name


def _run(args: argparse.Namespace) -> Run | None:
    """The run the arguments name, found as `commands` finds it (None for a remote logdir,
    which is read through its mirror: no quick answer)."""
    if args.logdir is not None and is_remote(args.logdir):
        return None
    root = local_path(command_line_root(args.run, args.logdir))
    runs = discover(root, follow_links_from_env()).runs
    return runs.get(command_line_run(args.run, args.logdir, runs, args.job))


def recall(args: argparse.Namespace) -> dict[str, Any] | None:
    """The summary `tb-perf analyze` gave for these arguments and this version of the run,
    None if there is none (raises what resolving the run raises: the same errors)."""
    run = _run(args)
    entry = None if run is None else answer_entry(args, run)
    if entry is None:
        return None
    try:
        answer: dict[str, Any] = json.loads((entry / _ANSWER).read_text())
    except (OSError, ValueError):
        return None
    return answer


def remember(entry: Path | None, summary: dict[str, Any]) -> None:
    """Keep `summary` at `entry` (`answer_entry`) for `recall`; nothing where the cache
    folder is not writable."""
    if entry is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}.", dir=entry.parent))
    except OSError:
        return
    try:
        (staging / _ANSWER).write_text(json.dumps(summary))
        os.replace(staging, entry)
    except OSError:  # another process kept the same answer first, or the disk is full
        shutil.rmtree(staging, ignore_errors=True)

"""Records HTA's critical path of its own test trace into hta_critical_path.json (run by hand,
in an environment with HolisticTraceAnalysis and a pandas it supports, e.g. 2.2):

    python tests/plugin/data/hta_critical_path.py ../shared/data

The window is the one HTA's test uses: the second "measure|forward" annotation of simple_add.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/"
    "benchmark_result_493459_1694039959_trace.json.gz"
)
ANNOTATION = "[param|pytorch.model.alex_net|0|0|0|measure|forward]"


def main(shared: str) -> None:
    from hta.trace_analysis import TraceAnalysis

    source = Path(shared) / TRACE
    events = json.loads(gzip.decompress(source.read_bytes()))["traceEvents"]
    marks = [e for e in events if e.get("name") == ANNOTATION]
    window = (int(marks[1]["ts"] * 1000), int((marks[1]["ts"] + marks[1]["dur"]) * 1000))
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(source, folder)
        graph, ok = TraceAnalysis(trace_dir=folder).critical_path_analysis(
            rank=0, annotation=ANNOTATION, instance_id=1
        )
    assert ok
    edges = graph.critical_path_edges_set
    by_type: dict[str, int] = {}
    for e in edges:
        by_type[e.type.value] = by_type.get(e.type.value, 0) + int(e.weight * 1000)
    by_event: dict[str, int] = {}
    for e in edges:
        event = graph.get_event_attribution_for_edge(e)
        if event is not None and e.weight:
            name = graph._get_node_name(event)
            by_event[name] = by_event.get(name, 0) + int(e.weight * 1000)
    top = sorted(by_event.items(), key=lambda kv: -kv[1])[:5]
    out = {
        "simple_add": {
            "window_ns": window,
            "hta_length_ns": sum(by_type.values()),
            "hta_by_edge_type_ns": by_type,
            "hta_path_events": len(graph.critical_path_events_set),
            "hta_top_events_ns": dict(top),
        }
    }
    target = Path(__file__).with_suffix(".json")
    target.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main(sys.argv[1])

"""The layers of docs/ARCHITECTURE.md: collectors import no plugin-side library and nothing of
the plugin, the plugin no torch; within the plugin each layer imports only lower ones, and
neither package has an import cycle."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _modules_after(code: str) -> set[str]:
    probe = f"import sys; sys.path.insert(0, {str(REPO)!r})\n{code}\nprint(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in out.stdout.split()}


def test_plugin_and_cli_never_import_torch():
    loaded = _modules_after(
        "import tb_perf_plugin.plugin, tb_perf_plugin.cli, tb_perf_plugin.loader\n"
        "from tb_perf_plugin import views\n"
        "from tb_perf_plugin.store import RunStore\n"
        f"store = RunStore({str(REPO / 'sample_runs')!r})\n"
        "views.overview.summary(store, 'ddp_slow_data', wait_s=None)"
    )
    assert "pandas" in loaded  # the probe really ran a view
    assert "torch" not in loaded


def test_collectors_import_only_the_standard_library(tmp_path):
    loaded = _modules_after(
        "from collectors import MyTimer\n"
        f"t = MyTimer({str(tmp_path)!r}, gpu=False)\n"
        "t.start('a'); t.stop('a'); t.step(); t.close()"
    )
    assert "collectors" in loaded
    for forbidden in (
        "pandas",
        "werkzeug",
        "tensorboard",
        "tb_perf_plugin",
        "numpy",
        "torch",
        "msgspec",
    ):
        assert forbidden not in loaded, forbidden


# --- static import rules (docs/ARCHITECTURE.md, layers) --------------------------------------
# Every import of every module counts, inside functions and under TYPE_CHECKING too.

# tb_perf_plugin's layers, lowest first: a module imports only its own layer and lower ones
PLUGIN_LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors", ("errors",)),
    ("ingest", ("ingest", "executor")),  # the executor seam runs ingest work
    ("analysis", ("analysis",)),
    ("pipeline", ("pipeline", "discovery", "remote")),
    ("store", ("store", "jobs", "params")),
    ("views", ("views",)),
    ("entry points", ("plugin", "loader", "cli", "commands", "analyze_cache", "report", "text")),
]
# within the entry points: the TensorBoard side and the CLI side do not import each other
SERVER_SIDE, CLI_SIDE = ("plugin", "loader"), ("cli", "commands", "analyze_cache", "report", "text")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` -> the modules of `package` it imports (a name imported from
    a package counts as its submodule where there is one, else as the package)."""
    files = {_module_name(p): p for p in (REPO / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = here[: len(here) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                           for alias in node.names]  # fmt: skip
            else:
                continue
            for target in targets:
                while target and target not in files:  # `import a.b.c` of a module a.b
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _layer(module: str) -> int:
    inner = module.split(".")[1] if "." in module else ""
    for rank, (_, names) in enumerate(PLUGIN_LAYERS):
        if inner in names:
            return rank
    raise AssertionError(f"{module} is in no layer: add it to PLUGIN_LAYERS")


def test_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", ["collectors", "tb_perf_plugin"])
def test_no_import_cycles(package):
    assert _cycles(_import_graph(package)) == []


def test_each_plugin_layer_imports_only_lower_layers():
    graph = _import_graph("tb_perf_plugin")
    assert "tb_perf_plugin.views.overview" in graph["tb_perf_plugin.views"]  # relative imports
    assert "tb_perf_plugin.errors" in graph["tb_perf_plugin.views.overview"]  # resolved
    wrong = []
    for module, imported in sorted(graph.items()):
        if module == "tb_perf_plugin":
            continue
        inner = module.split(".")[1]
        for target in sorted(imported - {"tb_perf_plugin"}):
            if _layer(target) > _layer(module):
                low, high = PLUGIN_LAYERS[_layer(module)][0], PLUGIN_LAYERS[_layer(target)][0]
                wrong.append(f"{module} ({low}) imports {target} ({high})")
            reached = target.split(".")[1]
            if (inner in SERVER_SIDE and reached in CLI_SIDE) or (
                inner in CLI_SIDE and reached in SERVER_SIDE
            ):
                wrong.append(f"{module} imports {target}: the server and the CLI stay apart")
    assert not wrong, "\n".join(wrong)


def test_collectors_import_nothing_of_the_plugin():
    for path in (REPO / "collectors").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]  # fmt: skip
                assert not any(n.split(".")[0] == "tb_perf_plugin" for n in names), path

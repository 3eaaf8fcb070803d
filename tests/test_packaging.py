"""The release as a user gets it (docs/PACKAGING.md): both distributions built with
`python -m build` from a copy of the repository's files, warning-free; their file lists and
metadata; long descriptions whose links work off the repository; and the wheels installed,
not editable, into fresh virtual environments: tb-perf serves the plugin from one, the
collectors alone run in another that holds nothing else."""

from __future__ import annotations

import configparser
import email.parser
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import collectors
import tb_perf_plugin

REPO = Path(__file__).resolve().parents[1]
VERSION = collectors.__version__
# not copied when git cannot list the files (a source tree without .git): what .gitignore says
IGNORED = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__"}
IGNORED_SUFFIXES = (".egg-info", ".pyc", "_cache")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)|^ {0,3}\[[^\]\n]+\]:[ \t]*(\S+)", re.M)
STARTUP_TIMEOUT_S = 90


def _source_files() -> list[str]:
    """The repository's files as a clone has them (plus new files not yet committed)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        ).stdout
        return sorted(f for f in out.decode().split("\0") if f and (REPO / f).is_file())
    except (OSError, subprocess.CalledProcessError):
        files = []
        for path in REPO.rglob("*"):
            rel = path.relative_to(REPO)
            if any(p in IGNORED or p.endswith(IGNORED_SUFFIXES) for p in rel.parts):
                continue
            if path.is_file():
                files.append(rel.as_posix())
        return sorted(files)


@dataclass(frozen=True)
class Dists:
    source: Path  # the copy they were built from
    files: list[str]  # its files
    out: Path
    logs: dict[str, str]

    def path(self, pattern: str) -> Path:
        (found,) = self.out.glob(pattern)
        return found


def _build(project: Path, out: Path) -> str:
    # sdist, then the wheel from the sdist, as `python -m build` does; with the test
    # environment's setuptools (no download); bytecode settings of the caller left out
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(project)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    return log


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    pytest.importorskip("build", reason="the test extra's `build` is not installed")
    source = tmp_path_factory.mktemp("source")
    files = _source_files()
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("dist")
    logs = {
        "tb-perf": _build(source, out),
        "tb-perf-collectors": _build(source / "tb-perf-collectors", out),
    }
    return Dists(source, files, out, logs)


def _wheel_files(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as wheel:
        return set(wheel.namelist())


def _sdist_files(path: Path) -> set[str]:
    with tarfile.open(path) as sdist:
        return {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile()}


def _metadata(wheel_path: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel_path) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(wheel.read(name).decode())


def _repository_url(setup_cfg: Path) -> str:
    config = configparser.ConfigParser()
    config.read(setup_cfg, encoding="utf-8")
    return config["metadata"]["url"]


# --- the build ---------------------------------------------------------------------------


@pytest.mark.parametrize("project", ["tb-perf", "tb-perf-collectors"])
def test_the_build_is_warning_free(dists: Dists, project: str) -> None:
    log = dists.logs[project]
    assert "Successfully built" in log
    warnings = [line for line in log.splitlines() if re.search(r"warn|deprecat", line, re.I)]
    assert not warnings, "\n".join(warnings)


def test_the_tb_perf_wheel_holds_the_plugin_and_nothing_else(dists: Dists) -> None:
    files = _wheel_files(dists.path(f"tb_perf-{VERSION}-py3-none-any.whl"))
    info = f"tb_perf-{VERSION}.dist-info"
    plugin_sources = {
        f for f in dists.files if f.startswith("tb_perf_plugin/") and f.endswith(".py")
    }
    assert plugin_sources <= files  # every module, subpackages included
    assert "tb_perf_plugin/static/index.js" in files
    assert f"{info}/licenses/LICENSE" in files
    assert {f.split("/")[0] for f in files} == {"tb_perf_plugin", info}  # no tests, samples...
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]


def test_the_collectors_wheel_holds_the_collectors_and_nothing_else(dists: Dists) -> None:
    files = _wheel_files(dists.path(f"tb_perf_collectors-{VERSION}-py3-none-any.whl"))
    info = f"tb_perf_collectors-{VERSION}.dist-info"
    modules = {f for f in files if not f.startswith(info)}
    assert modules == {f for f in dists.files if f.startswith("collectors/")}
    assert f"{info}/licenses/LICENSE" in files


def test_the_tb_perf_sdist_is_the_source_release(dists: Dists) -> None:
    files = _sdist_files(dists.path(f"tb_perf-{VERSION}.tar.gz"))
    wanted = ("docs/", "tests/", "sample_runs/", "collectors/", "tb_perf_plugin/", "benchmarks/")
    for name in [f for f in dists.files if f.startswith(wanted)]:
        assert name in files, name
    for name in ("LICENSE", "CHANGELOG.md", "README.md", "setup.py", "setup.cfg", "MANIFEST.in"):
        assert name in files, name
    assert "tb-perf-collectors/setup.py" in files and "frontend/src/index.ts" in files
    assert not [f for f in files if "__pycache__" in f or "node_modules" in f]


def test_the_collectors_sdist_builds_alone(dists: Dists) -> None:
    files = _sdist_files(dists.path(f"tb_perf_collectors-{VERSION}.tar.gz"))
    modules = {f for f in dists.files if f.startswith("collectors/")}
    assert modules <= files
    assert {"LICENSE", "README.md", "setup.py", "setup.cfg", "pyproject.toml"} <= files
    assert not [f for f in files if f.startswith(("tests/", "docs/", "sample_runs/", ".."))]


# --- metadata ------------------------------------------------------------------------------


@pytest.mark.parametrize("wheel", ["tb_perf", "tb_perf_collectors"])
def test_metadata_a_package_index_accepts(dists: Dists, wheel: str) -> None:
    trove = pytest.importorskip("trove_classifiers")
    meta = _metadata(dists.path(f"{wheel}-{VERSION}-py3-none-any.whl"))
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Keywords"] and meta["Summary"]
    classifiers = meta.get_all("Classifier")
    assert classifiers and not [c for c in classifiers if c not in trove.classifiers]
    # PEP 639: the license is the expression, never a deprecated License classifier too
    assert not [c for c in classifiers if c.startswith("License ::")]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) == {"Documentation", "Changelog", "Issues", "Source"}
    requires = meta.get_all("Requires-Dist") or []
    if wheel == "tb_perf":
        assert f"tb-perf-collectors=={VERSION}" in requires
    else:  # the standard library only; optional extras aside
        assert not [r for r in requires if "extra ==" not in r]


@pytest.mark.parametrize("wheel", ["tb_perf", "tb_perf_collectors"])
def test_the_long_description_links_work_off_the_repository(dists: Dists, wheel: str) -> None:
    body = _metadata(dists.path(f"{wheel}-{VERSION}-py3-none-any.whl")).get_payload()
    base = f"{_repository_url(REPO / 'setup.cfg')}/blob/v{VERSION}/"
    targets = [a or b for a, b in LINK.findall(body)]
    assert len(targets) >= 5
    for target in targets:
        assert target.startswith(("https://", "#")), target
        if target.startswith(base):  # into the repository at the release's tag: a real file
            path = target[len(base) :].split("#")[0]
            assert (dists.source / path).is_file(), target


def test_both_distributions_name_one_repository_and_one_license() -> None:
    root, sub = REPO / "setup.cfg", REPO / "tb-perf-collectors" / "setup.cfg"
    assert _repository_url(root) == _repository_url(sub)
    for section in ("project_urls", "license_expression", "python_requires"):
        values = []
        for path in (root, sub):
            config = configparser.ConfigParser()
            config.read(path, encoding="utf-8")
            key = "options" if section == "python_requires" else "metadata"
            values.append(config[key][section])
        assert values[0] == values[1], section
    license_text = (REPO / "LICENSE").read_text()
    assert "BSD 3-Clause License" in license_text
    assert (REPO / "tb-perf-collectors" / "LICENSE").read_text() == license_text


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    from tb_perf_plugin.cli import main

    assert tb_perf_plugin.__version__ == VERSION
    assert re.search(rf"^## {re.escape(VERSION)}\b", (REPO / "CHANGELOG.md").read_text(), re.M)
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"tb-perf {VERSION}\n"


def test_importing_the_plugin_does_not_import_the_collectors() -> None:
    probe = "import sys, tb_perf_plugin.loader; print('collectors' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


# --- installed into fresh virtual environments ------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=120)
    return path / "bin" / "python"


def _pip_install(python: Path, *args: str) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_collectors_alone_install_with_nothing_else(dists: Dists, tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv")
    wheel = dists.path(f"tb_perf_collectors-{VERSION}-py3-none-any.whl")
    _pip_install(python, "--no-index", str(wheel))  # no index: it needs nothing
    listed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert {p["name"] for p in json.loads(listed)} <= {"pip", "setuptools", "tb-perf-collectors"}
    script = (
        "import sys, collectors\n"
        f"t = collectors.MyTimer({str(tmp_path / 'run')!r}, gpu=False)\n"
        "t.start('a'); t.stop('a'); t.step(); t.close()\n"
        "print(collectors.__version__, collectors.__file__)\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    done = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    version_line, modules = done.stdout.splitlines()
    assert version_line.startswith(f"{VERSION} {tmp_path / 'venv'}")  # the installed copy
    assert not set(modules.split()) & {"torch", "numpy", "pandas", "tensorboard", "tb_perf_plugin"}
    assert list((tmp_path / "run" / "plugins" / "tb_perf").glob("*.timer.jsonl"))


def test_the_tb_perf_wheels_install_and_serve_the_plugin(dists: Dists, tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv")
    bin_dir = python.parent
    # not editable, the two wheels; their requirements from the package index
    _pip_install(
        python,
        "--find-links",
        str(dists.out),
        str(dists.path(f"tb_perf-{VERSION}-py3-none-any.whl")),
    )
    version = subprocess.run(
        [str(bin_dir / "tb-perf"), "--version"], capture_output=True, text=True, timeout=120
    )
    assert version.stdout == f"tb-perf {VERSION}\n", version.stderr
    env = {**os.environ, "TB_PERF_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    analyze = subprocess.run(
        [str(bin_dir / "tb-perf"), "analyze", str(dists.source / "sample_runs" / "ddp_slow_data")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert analyze.returncode == 0, analyze.stderr
    assert "data_loading" in analyze.stdout or "data loading" in analyze.stdout.lower()

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "tensorboard.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [str(bin_dir / "tensorboard"), "--logdir", str(dists.source / "sample_runs")]
            + ["--host", "127.0.0.1", "--port", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            env=env,
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{url}/data/plugins_listing", timeout=5) as r:
                    if "tb_perf" in json.load(r):
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"TensorBoard did not list tb_perf:\n{log_path.read_text()}")
            time.sleep(0.3)
        with urllib.request.urlopen(f"{url}/data/plugin/tb_perf/static/index.js") as r:
            bundle = r.read()
        assert bundle == (REPO / "tb_perf_plugin" / "static" / "index.js").read_bytes()
        with urllib.request.urlopen(f"{url}/data/plugin/tb_perf/runs", timeout=30) as r:
            assert "ddp_slow_data" in json.dumps(json.load(r))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

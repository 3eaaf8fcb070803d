"""Every public class of `collectors` shows its real constructor: `inspect.signature` (what
help() and IDEs show) lists its __init__'s parameters, never a catch-all `(*args, **kwargs)`
left by a `__new__` or a metaclass (MyTimer picks its disabled subclass in `__new__`)."""

from __future__ import annotations

import enum
import inspect
import pydoc

import pytest

import collectors

PUBLIC = {name: getattr(collectors, name) for name in collectors.__all__}
CLASSES = sorted(name for name, obj in PUBLIC.items() if inspect.isclass(obj))
VAR = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _init_parameters(cls: type) -> list[inspect.Parameter]:
    """The parameters of `cls.__init__` after `self`: what `cls(...)` really takes."""
    return list(inspect.signature(cls.__init__).parameters.values())[1:]


def _kind(cls: type) -> str:
    if issubclass(cls, BaseException):
        return "exception"
    if issubclass(cls, enum.Enum):
        return "enum"
    if getattr(cls, "_is_protocol", False):
        return "protocol"
    return "class"


def test_the_public_classes_are_all_checked() -> None:
    kinds = {name: _kind(PUBLIC[name]) for name in CLASSES}
    assert len(CLASSES) >= 30
    assert kinds["MyTimer"] == "class"
    assert {n for n, k in kinds.items() if k == "protocol"} == {
        "CaptureBackend",
        "EventBackend",
        "GpuBackend",
        "Mirror",
        "Policy",
    }
    assert {n for n, k in kinds.items() if k == "exception"} == {"CaptureConfigError", "TimerError"}
    assert {n for n, k in kinds.items() if k == "enum"} == {"Phase"}


@pytest.mark.parametrize("name", CLASSES)
def test_public_class_shows_its_real_signature(name: str) -> None:
    cls = PUBLIC[name]
    kind = _kind(cls)
    if kind == "exception":
        # raised by the collectors, caught by users: constructed with a message as any
        # exception; nothing of its own hides behind BaseException's (*args)
        assert "__init__" not in vars(cls) and "__new__" not in vars(cls)
        assert str(cls("why")) == "why"
    elif kind == "enum":
        # members are looked up, not constructed
        assert all(cls(member.value) is member for member in cls)
    elif kind == "protocol":
        # an interface to implement, never constructed: its methods show what to implement
        with pytest.raises(TypeError):
            cls()
        methods = [
            m for m in vars(cls) if not m.startswith("_") and inspect.isfunction(vars(cls)[m])
        ]
        assert methods, name
        for method in methods:
            params = inspect.signature(getattr(cls, method)).parameters.values()
            assert not [p for p in params if p.kind in VAR], f"{name}.{method}"
    else:
        shown = list(inspect.signature(cls).parameters.values())
        assert shown == _init_parameters(cls)
        # a catch-all only where __init__ itself takes one (TaskProfiler's **profiler_options)
        assert [p.name for p in shown if p.kind in VAR] in ([], ["profiler_options"])


def test_mytimer_shows_its_parameters_enabled_or_not() -> None:
    expected = ["writer", "enabled", "gpu", "mirrors", "scalar_interval_s", "flush_every_steps"]
    assert list(inspect.signature(collectors.MyTimer).parameters) == expected
    disabled = collectors.MyTimer(enabled=False)
    assert not disabled.enabled and isinstance(disabled, collectors.MyTimer)
    assert list(inspect.signature(type(disabled)).parameters) == expected
    # help() renders the same line
    assert "MyTimer(writer: " in pydoc.render_doc(collectors.MyTimer, renderer=pydoc.plaintext)


def test_mytimer_still_reads_enabled_from_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("ENABLE_TIMER", "0")
    assert not collectors.MyTimer(tmp_path).enabled
    for enabled, env in ((True, "0"), (None, "1")):
        monkeypatch.setenv("ENABLE_TIMER", env)
        timer = collectors.MyTimer(tmp_path, enabled=enabled, gpu=False)
        assert timer.enabled
        timer.close()


def test_lightning_profiler_shows_its_signature() -> None:
    lightning = pytest.importorskip("collectors.lightning")
    for name in lightning.__all__:
        cls = getattr(lightning, name)
        if inspect.isclass(cls):
            shown = list(inspect.signature(cls).parameters.values())
            assert not [p for p in shown if p.kind in VAR], name

import json

from tb_perf_plugin.cli import main
from tests.conftest import write_training_run
from tests.helpers import timer_file


def test_analyze_run_directory_as_json(training_logdir, capsys):
    assert main(["analyze", str(training_logdir / "exp" / "a"), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["run"] == str(training_logdir / "exp" / "a")
    assert {row["name"] for row in summary["spans"]} == {"data", "train", "forward", "backward"}


def test_analyze_by_name_in_text_and_markdown(training_logdir, capsys):
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--rank", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("run exp/a, rank 1")
    assert any(line.split()[:2] == ["data", "6"] for line in text.splitlines())
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--format", "md"]) == 0
    assert "| data | 12 |" in capsys.readouterr().out


def test_usage_errors_exit_2(training_logdir, tmp_path, capsys):
    write_training_run(training_logdir / "exp" / "b", world_size=1, steps=1)
    assert main(["analyze", str(tmp_path / "missing")]) == 2
    assert main(["analyze", str(training_logdir)]) == 2  # two runs: which one?
    err = capsys.readouterr().err
    assert "is not a directory" in err and "holds 2 runs (exp/a, exp/b)" in err
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir), "--rank", "9"]) == 2


def test_unreadable_input_exits_3(training_logdir, capsys):
    for rank in (0, 1):
        path = timer_file(training_logdir / "exp/a", rank)
        path.write_text('{"schema": "tb_perf.timer", "version": 99}\n')
    assert main(["analyze", "exp/a", "--logdir", str(training_logdir)]) == 3
    assert "version 99 is not supported" in capsys.readouterr().err

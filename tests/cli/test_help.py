"""``drawlab --help`` speaks to a user: every command and every argument says what it does."""

from __future__ import annotations

import argparse
import re

import pytest

import cli


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    return dict(actions[0].choices)


def test_every_argument_of_every_command_has_help() -> None:
    parser = cli.build_parser()
    commands = _subparsers(parser)
    assert {"app", "import", "stats", "verify"} <= set(commands)
    missing = [
        f"{name} {'/'.join(a.option_strings) or a.dest}"
        for name, sub in commands.items()
        for a in sub._actions
        if not isinstance(a, argparse._HelpAction) and not a.help
    ]
    assert missing == []


def test_the_top_help_describes_the_commands_for_a_user(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2] == (
        "DrawLab: hand-history analysis and training for draw poker (2-7 Triple Draw first)."
    )
    assert "argument parsing" not in out  # the module's design is not the user's business
    # the column is as wide as the longest command's name
    assert re.search(r"\n    app +start the dashboard: overview, replayer, import, drills\n", out)
    assert "Start with:  drawlab import PATH...   then   drawlab app" in out


def test_app_help_says_who_can_reach_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["app", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--db FILE" in out and "--port N" in out and "--host ADDRESS" in out
    assert "(default: 127.0.0.1, this computer only)" in out

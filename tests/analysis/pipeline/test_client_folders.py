"""The poker clients' history folders suggested for watching, on a fake home folder: only
those that exist, for each system, each once, and nothing inside them read."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.pipeline.client_folders import Suggestion, candidates, suggested_folders


def _make(home: Path, *parts: str) -> Path:
    folder = home.joinpath(*parts)
    folder.mkdir(parents=True)
    return folder


def test_wine_folders_on_linux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    stars = _make(home, ".wine", "drive_c", "users", "ann", "AppData", "Local", "PokerStars",
                  "HandHistory")  # fmt: skip
    tilt = _make(home, ".wine", "drive_c", "Program Files (x86)", "Full Tilt Poker", "HandHistory")
    wina = _make(home, ".wine", "drive_c", "users", "ann", "My Documents", "Winamax Poker",
                 "accounts")  # fmt: skip
    _make(home, ".wine", "drive_c", "users", "bob", "AppData", "Local", "PokerStars", "HandHistory")
    found = suggested_folders(home, system="Linux", env={}, user="ann")
    assert found == [
        Suggestion("PokerStars", "Wine", stars),
        Suggestion("Full Tilt", "Wine", tilt),
        Suggestion("Winamax", "Wine", wina),
    ]
    assert found[0].label == "PokerStars (Wine)"


def test_a_chosen_wine_prefix_comes_first(tmp_path: Path) -> None:
    home = tmp_path / "home"
    games = tmp_path / "games" / "poker"
    chosen = _make(games, "drive_c", "Program Files", "PokerStars", "HandHistory")
    default = _make(home, ".wine", "drive_c", "Program Files", "PokerStars", "HandHistory")
    found = suggested_folders(home, system="Linux", env={"WINEPREFIX": str(games)}, user="ann")
    assert [s.path for s in found] == [chosen, default]


def test_macos_folders(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "ann"
    stars = _make(home, "Library", "Application Support", "PokerStars", "HandHistory")
    wina = _make(home, "Library", "Application Support", "winamax", "documents", "accounts")
    old_wina = _make(home, "Documents", "Winamax Poker", "accounts")
    (stars / "Ann1").mkdir()
    (stars / "Ann1" / "HH20260301 Badugi.txt").write_text("secret", encoding="utf-8")
    found = suggested_folders(home, system="Darwin", env={}, user="ann")
    assert found == [
        Suggestion("PokerStars", "macOS", stars),
        Suggestion("Winamax", "macOS", wina),
        Suggestion("Winamax", "macOS", old_wina),
    ]


def test_windows_folders_follow_the_environment(tmp_path: Path) -> None:
    home = tmp_path / "C" / "Users" / "ann"
    local = tmp_path / "elsewhere" / "Local"
    programs = tmp_path / "C" / "Program Files (x86)"
    stars_fr = _make(local, "PokerStars.FR", "HandHistory")
    stars = _make(local, "PokerStars", "HandHistory")
    tilt = _make(programs, "Full Tilt Poker", "HandHistory")
    wina = _make(home, "Documents", "Winamax Poker", "accounts")
    env = {"LOCALAPPDATA": str(local), "ProgramFiles(x86)": str(programs),
           "USERPROFILE": str(home)}  # fmt: skip
    found = suggested_folders(home, system="Windows", env=env, user="ann")
    assert found == [
        Suggestion("PokerStars", "Windows", stars),
        Suggestion("PokerStars.FR", "Windows", stars_fr),
        Suggestion("Full Tilt", "Windows", tilt),
        Suggestion("Winamax", "Windows", wina),
    ]


def test_windows_defaults_without_the_environment(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "ann"
    paths = [p for _, _, p in candidates(home, "Windows", {}, "ann")]
    assert home / "AppData" / "Local" / "PokerStars" / "HandHistory" in paths
    assert home / "AppData" / "Local" / "HandHistory" in paths  # the Vista-era Full Tilt
    assert home / "Documents" / "Winamax Poker" / "accounts" in paths
    assert sum(1 for p in paths if p.parts[-2:] == ("Full Tilt Poker", "HandHistory")) == 2


def test_nothing_exists_nothing_is_suggested(tmp_path: Path) -> None:
    for system in ("Linux", "Darwin", "Windows"):
        assert suggested_folders(tmp_path, system=system, env={}, user="ann") == []


def test_a_folder_that_cannot_be_looked_into_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    blocked = _make(home, ".wine", "drive_c", "Program Files", "PokerStars", "HandHistory")
    tilt = _make(home, ".wine", "drive_c", "Program Files", "Full Tilt Poker", "HandHistory")
    is_dir = Path.is_dir

    def guarded(self: Path) -> bool:
        if self == blocked:
            raise PermissionError(13, "Permission denied", str(self))
        return is_dir(self)

    monkeypatch.setattr(Path, "is_dir", guarded)
    assert suggested_folders(home, system="Linux", env={}, user="ann") == [
        Suggestion("Full Tilt", "Wine", tilt)
    ]

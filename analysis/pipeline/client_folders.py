"""Where the poker clients write their hand histories, to suggest folders worth watching.

The default folders of the PokerStars, Full Tilt and Winamax clients on Windows, macOS and
under Wine on Linux, as the clients' own settings and other trackers (fpdb's site
detection, PokerTracker-style guides) name them:

- PokerStars: ``%LOCALAPPDATA%\\PokerStars\\HandHistory`` (Windows Vista on; the regional
  clients ``PokerStars.EU``, ``.FR``, ``.IT``, ``.ES`` beside it), ``Program Files\\PokerStars
  \\HandHistory`` (Windows XP and old installs), ``~/Library/Application Support/PokerStars
  /HandHistory`` (macOS).  Each holds one folder per screen name.
- Full Tilt: ``Program Files\\Full Tilt Poker\\HandHistory`` (the installer's folder, also
  under Wine), ``%LOCALAPPDATA%\\HandHistory`` (the Vista-era client).
- Winamax: ``Documents\\Winamax Poker\\accounts`` (Windows; older macOS clients and Wine
  too), ``~/Library/Application Support/winamax/documents/accounts`` (macOS today); one
  folder per account, whose ``history`` holds the hands.

Only whether a folder exists is asked, never what it holds: nothing is read until the user
picks a suggestion (the Import page's "Watch this").  The suggested folder is the client's
history root, so every screen name or account in it is watched.
"""

from __future__ import annotations

import getpass
import os
import platform
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

STARS_REGIONS = ("PokerStars", "PokerStars.EU", "PokerStars.FR", "PokerStars.IT", "PokerStars.ES")


@dataclass(frozen=True)
class Suggestion:
    """A client's history folder that exists here: ``client`` and ``system`` as a user
    would say them ("PokerStars.FR", "Windows", "macOS", "Wine")."""

    client: str
    system: str
    path: Path

    @property
    def label(self) -> str:
        return f"{self.client} ({self.system})"


def _windows(home: Path, env: Mapping[str, str]) -> Iterator[tuple[str, Path]]:
    """The Windows folders under a user's home (``C:\\Users\\name``) and the program
    folders; the environment's ``LOCALAPPDATA`` and ``ProgramFiles`` win when set."""
    local = Path(env["LOCALAPPDATA"]) if env.get("LOCALAPPDATA") else home / "AppData" / "Local"
    programs = [Path(env[k]) for k in ("ProgramFiles", "ProgramFiles(x86)") if env.get(k)]
    if not programs:
        drive = Path(PureWindowsPath(home).anchor or "C:\\")
        programs = [drive / "Program Files", drive / "Program Files (x86)"]
    for region in STARS_REGIONS:
        yield region, local / region / "HandHistory"
    for folder in programs:
        yield "PokerStars", folder / "PokerStars" / "HandHistory"
        yield "Full Tilt", folder / "Full Tilt Poker" / "HandHistory"
    yield "Full Tilt", local / "HandHistory"
    profile = Path(env["USERPROFILE"]) if env.get("USERPROFILE") else home
    documents = profile / "Documents"
    yield "Winamax", documents / "Winamax Poker" / "accounts"


def _macos(home: Path) -> Iterator[tuple[str, Path]]:
    support = home / "Library" / "Application Support"
    yield "PokerStars", support / "PokerStars" / "HandHistory"
    yield "Winamax", support / "winamax" / "documents" / "accounts"
    yield "Winamax", home / "Documents" / "Winamax Poker" / "accounts"


def _wine(prefix: Path, user: str) -> Iterator[tuple[str, Path]]:
    """A Wine prefix's ``drive_c`` laid out as Windows is: the program folders, and the
    user's folders as Wine names them (``AppData/Local`` today, ``Local Settings/
    Application Data`` and ``My Documents`` in older Wine)."""
    drive = prefix / "drive_c"
    profile = drive / "users" / user
    for local in (profile / "AppData" / "Local", profile / "Local Settings" / "Application Data"):
        for region in STARS_REGIONS:
            yield region, local / region / "HandHistory"
        yield "Full Tilt", local / "HandHistory"
    for programs in (drive / "Program Files", drive / "Program Files (x86)"):
        yield "PokerStars", programs / "PokerStars" / "HandHistory"
        yield "Full Tilt", programs / "Full Tilt Poker" / "HandHistory"
    for documents in (profile / "Documents", profile / "My Documents"):
        yield "Winamax", documents / "Winamax Poker" / "accounts"


def candidates(
    home: Path, system: str, env: Mapping[str, str], user: str
) -> Iterator[tuple[str, str, Path]]:
    """Every default folder for ``system`` (``platform.system()``'s name), existing or not:
    (client, system as said, path)."""
    if system == "Windows":
        for client, path in _windows(home, env):
            yield client, "Windows", path
        return
    if system == "Darwin":
        for client, path in _macos(home):
            yield client, "macOS", path
    prefixes = [home / ".wine"]
    if env.get("WINEPREFIX"):
        prefixes.insert(0, Path(env["WINEPREFIX"]).expanduser())
    for prefix in dict.fromkeys(prefixes):  # once each, the chosen prefix first
        for client, path in _wine(prefix, user):
            yield client, "Wine", path


def suggested_folders(
    home: Path | None = None,
    *,
    system: str | None = None,
    env: Mapping[str, str] | None = None,
    user: str | None = None,
) -> list[Suggestion]:
    """The clients' history folders that exist on this machine (by default: this user's
    home, system and environment), each once, in the order above."""
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    system = platform.system() if system is None else system
    user = user or env.get("USER") or env.get("USERNAME") or _user(home)
    out: list[Suggestion] = []
    seen: set[Path] = set()
    for client, said, path in candidates(home, system, env, user):
        try:
            there = path.is_dir()
        except OSError:  # a folder we may not look into: not suggested
            there = False
        if there and path not in seen:
            seen.add(path)
            out.append(Suggestion(client, said, path))
    return out


def _user(home: Path) -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return PurePosixPath(home).name

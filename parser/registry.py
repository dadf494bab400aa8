"""The site readers the file reader asks, in order, whether a file is theirs.

Each site's reader is one line here: the first whose ``sniff`` accepts a file's head
reads the whole file.  Put a reader whose ``sniff`` is broad after the narrow ones.
"""

from __future__ import annotations

from parser.boss import BossReader
from parser.fulltilt import FullTiltReader
from parser.kingsclub import KingsClubReader
from parser.merge import MergeReader
from parser.ongame import OnGameReader
from parser.phh import PhhReader
from parser.pokerstars import PokerStarsReader
from parser.site import SiteReader
from parser.winamax import WinamaxReader

READERS: list[SiteReader] = [
    PokerStarsReader(),
    PhhReader(),
    FullTiltReader(),
    KingsClubReader(),
    WinamaxReader(),
    OnGameReader(),
    MergeReader(),
    BossReader(),
]

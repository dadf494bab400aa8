"""The one money formatter: every way DrawLab writes hundredths, sign handled once."""

from __future__ import annotations

import pytest

from analysis.drills.pots import money as drill_money
from analysis.statistics.facts import money_label
from analysis.statistics.text import money as report_money
from engine.money import format_money


@pytest.mark.parametrize(
    ("amount", "kwargs", "text"),
    [
        (150000, {}, "1,500"),
        (25, {}, "0.25"),
        (-190, {}, "-1.90"),
        (0, {}, "0"),
        (123456789, {}, "1,234,567.89"),
        (150, {"symbol": "$", "thousands": False}, "$1.50"),
        (-150, {"symbol": "$", "thousands": False}, "-$1.50"),
        (200, {"cents": True}, "2.00"),
        (-5, {"cents": True, "thousands": False}, "-0.05"),
        (150000, {"thousands": False}, "1500"),
    ],
)
def test_format_money(amount: int, kwargs: dict[str, object], text: str) -> None:
    assert format_money(amount, **kwargs) == text  # type: ignore[arg-type]


def test_the_labels_of_stakes_and_reports_write_negative_amounts_right() -> None:
    # money_label(-10) was "-1.90": divmod of a negative number kept the floor
    assert [money_label(a) for a in (-10, 10, 200, -200, -1234)] == [
        "-0.10",
        "0.10",
        "2",
        "-2",
        "-12.34",
    ]
    assert [report_money(a) for a in (-1234, 5, 100000)] == ["-12.34", "0.05", "1000.00"]
    assert [drill_money(a) for a in (-1234, 5, 100000)] == ["-12.34", "0.05", "1000.00"]

"""Hypothesis without its per-example deadline: speed is measured in benchmarks/, not in
tests, and a deadline only makes a correct test fail on a loaded CI machine."""

from hypothesis import settings

settings.register_profile("drawlab", deadline=None)
settings.load_profile("drawlab")

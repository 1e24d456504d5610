"""Settings for the whole suite.

Hypothesis's default deadline (200 ms an example) fails a correct test on a busy machine (two
cores, a browser test beside it): the property tests here check results, not speed, which the
benchmarks measure."""

from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

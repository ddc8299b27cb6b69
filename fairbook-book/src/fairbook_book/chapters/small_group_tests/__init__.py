"""Chapter "How small is too small?": small-group tests compared exactly.

Is a small group's rate really different from its reference's? The chapter computes, by
exact enumeration of every outcome (:mod:`fairbook.stats.group_tests`), how often each of
seven tests flags a group that is not different (its size) and one that is (its power), at
group sizes from 5 to 500; then what happens over many small intersections at once
(:mod:`fairbook.stats.many_groups`). This package arranges it by role:

* :mod:`~fairbook_book.chapters.small_group_tests.settings` — the profiles;
* :mod:`~fairbook_book.chapters.small_group_tests.runs` — reference rates, size and power;
* :mod:`~fairbook_book.chapters.small_group_tests.results` — the side-by-side tables and
  what to use when;
* :mod:`~fairbook_book.chapters.small_group_tests._many_groups` — section 2;
* :mod:`~fairbook_book.chapters.small_group_tests.replication` — the thesis's MATCH claims;
* :mod:`~fairbook_book.chapters.small_group_tests.figures`,
  :mod:`~fairbook_book.chapters.small_group_tests.explorers`,
  :mod:`~fairbook_book.chapters.small_group_tests.key_results`.
"""

from ._many_groups import (
    familywise_table,
    familywise_view,
    intersection_groups,
    max_disparity_curve,
    max_disparity_table,
    max_disparity_view,
    plot_max_disparity_curve,
)
from .explorers import test_chart, test_explorer, test_grid
from .figures import plot_sizes
from .key_results import key_results, many_groups_sentence
from .replication import PAPER_SOURCES, match_claims_replication
from .results import (
    AUDIT_TESTS,
    decision_rule,
    holds_table,
    power_table,
    rules_of_thumb,
    size_table,
    style_sizes,
    what_to_use,
)
from .runs import TEST_NAMES, base_rates, size_power
from .settings import DATASETS, METRICS, PROFILES, settings

__all__ = [
    "AUDIT_TESTS",
    "DATASETS",
    "METRICS",
    "PAPER_SOURCES",
    "PROFILES",
    "TEST_NAMES",
    "base_rates",
    "decision_rule",
    "familywise_table",
    "familywise_view",
    "holds_table",
    "intersection_groups",
    "key_results",
    "many_groups_sentence",
    "match_claims_replication",
    "max_disparity_curve",
    "max_disparity_table",
    "max_disparity_view",
    "plot_max_disparity_curve",
    "plot_sizes",
    "power_table",
    "rules_of_thumb",
    "settings",
    "size_power",
    "size_table",
    "style_sizes",
    "test_chart",
    "test_explorer",
    "test_grid",
    "what_to_use",
]

"""Seed 003 (Briscoe), values as printed. Confusion matrices are ``[TP, FN, FP, TN]``."""

import math

#: Table 3.1 — scenario: (group i CM, group j CM, OFI, DI). DI of B is printed "NaN or 1".
TABLE_3_1 = {
    "A": ([1, 0, 0, 5], [7, 0, 1, 10], -0.06, 0.38),
    "B": ([0, 1, 0, 5], [0, 7, 0, 11], 0.22, math.nan),
    "α": ([1, 1, 0, 5], [1, 7, 0, 11], 0.23, 2.71),
}

#: Table 3.1's verdicts under Ricci v. DeStefano, by scenario.
TABLE_3_1_LAW = {"A": "likely no bias", "B": "bias for i", "α": "bias for i"}

#: Table 3.3 — scenario: (group i CM, group j CM, TE, DCA, OFI).
TABLE_3_3 = {
    "C": ([1, 2, 1, 1], [1, 1, 2, 2], 1.5, 0.83, -0.37),
    "D": ([1, 2, 1, 1], [1, 1, 2, 4], 1.5, 0.83, -0.33),
}

#: Sec. 3.4 / Fig. 3.3 claim (Folktables Georgia, Naive Bayes): out of 8 comparisons DI
#: says Pacific Islanders are favoured in 7, OFI in 2.
FIG_3_3_NB_PACIFIC_ISLANDER = {"DI favours": 7, "OFI favours": 2, "comparisons": 8}

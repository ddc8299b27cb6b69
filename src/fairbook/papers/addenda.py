"""Printed numbers the per-seed modules do not hold, as printed.

The per-seed modules (:mod:`fairbook.papers.seed000` and the others) are among the code the
recorded runs depend on, so numbers that only the ledger needs are added here instead of
there. Nothing here is a result of ours; each constant names its paper and table.

Examples
--------
>>> SEED000_TABLE_4_PERCENT["COMPAS"]["B"]
(48, 52)
"""

__all__ = [
    "SEED000_TABLE_4_PERCENT",
    "SEED000_TABLE_6_PERCENT",
    "SEED000_TABLE_6_PRINTED_N",
    "SEED003_TABLE_3_1_COLUMNS",
    "SEED003_TABLE_3_3_THRESHOLDS",
    "SEED003_TABLE_5_2_MICROCLIMATE",
    "SEED004_TABLE_3_TOTALS",
]

#: Seed 000 Table 4: each count's share of its group in whole percent, (Y = 0, Y = 1).
SEED000_TABLE_4_PERCENT = {
    "COMPAS": {"B": (48, 52), "W": (61, 39), "F": (65, 35), "M": (52, 48)},
    "Adult": {"B": (87, 13), "W": (74, 26), "F": (89, 11), "M": (69, 31)},
}

#: Seed 000 Table 6: the sample counts exactly as printed. Female, Y = 0 is printed "2666",
#: a typo for 266 (Table 7's 639 Female videos less the 373 with Y = 1), which is what
#: :data:`fairbook.papers.seed000.TABLE_6` holds; the ledger judges the printed value.
SEED000_TABLE_6_PRINTED_N = {("M", 0): 140, ("M", 1): 182, ("F", 0): 2666, ("F", 1): 373}

#: Seed 000 Table 6: the "(0%)" printed beside each sample count.
SEED000_TABLE_6_PERCENT = {("M", 0): 0.0, ("M", 1): 0.0, ("F", 0): 0.0, ("F", 1): 0.0}

#: Seed 003 Table 5.2, the microclimate columns (weather data that is not public): skill
#: scores at the quartiles and the percent of forecasts PTN outperforms.
SEED003_TABLE_5_2_MICROCLIMATE = {
    "NBM": {"Q1": 0.42, "Q2": 0.59, "Q3": 0.70, "percent_improved": 96.4},
    "TiDE": {"Q1": 0.21, "Q2": 0.18, "Q3": 0.16, "percent_improved": 77.5},
}

#: Seed 004 Table 3: the totals printed around the running example's confusion counts
#: (group sizes in the header, row totals, and the Total row).
SEED004_TABLE_3_TOTALS = {
    "Female (header)": 200,
    "Male (header)": 200,
    "Sport (row total)": 200,
    "Cook (row total)": 200,
    "Female Pred-Sport (total)": 90,
    "Female Pred-Cook (total)": 110,
    "Male Pred-Sport (total)": 130,
    "Male Pred-Cook (total)": 70,
    "Total": 400,
}

#: Seed 003 Table 3.1: per group row (group, scenario), the columns n, b, E[b] and B as
#: printed (fractions as text, e.g. "8/18"; the confusion counts are in
#: :data:`fairbook.papers.seed003.TABLE_3_1`).
SEED003_TABLE_3_1_COLUMNS = {
    ("i", "A"): ("6", "1/6", "1/6", "0"),
    ("j", "A"): ("18", "8/18", "7/18", "1/18"),
    ("i", "B"): ("6", "0/6", "1/6", "-1/6"),
    ("j", "B"): ("18", "0/18", "7/18", "-7/18"),
    ("i", "α"): ("7", "1/7", "2/7", "-1/7"),
    ("j", "α"): ("19", "1/19", "8/19", "-7/19"),
}

#: Seed 003 Table 3.3: the thresholds' printed 0 (TE > 0, DCA > 0, OFI < 0).
SEED003_TABLE_3_3_THRESHOLDS = {"TE": 0.0, "DCA": 0.0, "OFI": 0.0}

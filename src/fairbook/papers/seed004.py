"""Seed 004 (Qian et al.), values as printed."""

__all__ = [
    "BELOW_0_1",
    "DETERMINISTIC_OVERHEAD",
    "EXPERIMENTS",
    "FIG_1_HUGE",
    "FINDING_1",
    "FINDING_1_PER_CLASS_MAX",
    "FINDING_2_EXAMPLE",
    "FINDING_3",
    "FINDING_4",
    "FINDING_5",
    "FINDING_6",
    "INTRO_DI_BAR_RUNS",
    "RANGES_OVERLAP",
    "SINGLE_RUN_REVERSAL",
    "STUDY_SCALE",
    "TABLE_2",
    "TABLE_2_METRICS",
    "TABLE_3_COUNTS",
    "TABLE_3_METRICS",
    "TABLE_4_DI_BAR",
    "TABLE_5",
]


#: Table 3 — the running example: rows (group, true label) → (pred Sport, pred Cook).
TABLE_3_COUNTS = {
    ("Female", "Sport"): (80, 20),
    ("Female", "Cook"): (10, 90),
    ("Male", "Sport"): (60, 40),
    ("Male", "Cook"): (70, 30),
}

#: Table 3 — the seven metrics, in percent, as printed.
TABLE_3_METRICS = {
    "DP": 20.0,
    "DI_BAR": 33.6,
    "SPSF": 10.0,
    "FPSF": 20.0,
    "EOFP": 40.0,
    "EOTP": 40.0,
    "BA": 10.1,
}

# --------------------------------------------------------------------------- Table 2
#: Table 2's metric order (the paper writes DI with a bar; the book calls it DI_BAR).
TABLE_2_METRICS = ("DP", "DI_BAR", "SPSF", "FPSF", "EOFP", "EOTP", "BA")

#: Printed as "<0.1" in Table 2 (kept as text: it is a bound, not a value).
BELOW_0_1 = "<0.1"

#: Table 2 — MaxDiff and STDEV over 16 FIT runs, percentage points, as printed:
#: technique → (row, statistic) → values in :data:`TABLE_2_METRICS` order.
TABLE_2 = {
    "S-GR": {
        ("Overall", "MaxDiff"): (1.7, 11.8, 0.9, 0.5, 1.2, 7.2, 4.2),
        ("Overall", "STDEV"): (0.5, 3.5, 0.3, 0.2, 0.4, 2.0, 1.3),
        ("Per-class", "MaxDiff"): (7.3, 50.1, 3.6, 2.5, 5.7, 34.6, 19.3),
        ("Per-class", "STDEV"): (1.9, 12.7, 1.0, 0.7, 1.4, 8.1, 5.0),
    },
    "A-L2": {
        ("Overall", "MaxDiff"): (12.6, 8.0, 6.0, 1.6, 7.2, 7.2, 11.6),
        ("Overall", "STDEV"): (2.9, 2.4, 1.4, 0.5, 2.1, 2.1, 3.1),
        ("Per-class", "MaxDiff"): (12.6, 31.1, 6.0, 3.5, 14.3, 14.3, 15.9),
        ("Per-class", "STDEV"): (2.9, 8.8, 1.4, 1.2, 4.8, 4.8, 4.2),
    },
    "C-Base": {
        ("Overall", "MaxDiff"): (BELOW_0_1, 2.6, BELOW_0_1, BELOW_0_1, BELOW_0_1, 1.9, 1.4),
        ("Overall", "STDEV"): (BELOW_0_1, 0.8, BELOW_0_1, BELOW_0_1, BELOW_0_1, 0.6, 0.4),
        ("Per-class", "MaxDiff"): (1.6, 100.0, 0.8, 0.5, 1.1, 33.3, 33.3),
        ("Per-class", "STDEV"): (0.5, 38.9, 0.3, 0.2, 0.4, 11.7, 8.1),
    },
    "C-A5": {
        ("Overall", "MaxDiff"): (0.1, 2.4, BELOW_0_1, BELOW_0_1, BELOW_0_1, 2.6, 3.1),
        ("Overall", "STDEV"): (BELOW_0_1, 0.6, BELOW_0_1, BELOW_0_1, BELOW_0_1, 0.6, 0.8),
        ("Per-class", "MaxDiff"): (3.7, 100.0, 1.8, 1.0, 2.1, 43.9, 65.4),
        ("Per-class", "STDEV"): (0.9, 28.2, 0.4, 0.2, 0.5, 10.8, 21.8),
    },
}

# --------------------------------------------------------------------------- Table 4
#: Table 4 — DI-bar over 16 FIT runs, percentage points: technique →
#: (overall MaxDiff, overall STDEV, per-class MaxDiff, per-class STDEV).
TABLE_4_DI_BAR = {
    "S-Base": (2.0, 0.5, 7.0, 1.9),
    "S-RS": (2.0, 0.5, 5.8, 1.2),
    "S-UC": (5.1, 1.7, 18.4, 4.6),
    "S-GR": (11.8, 3.5, 50.1, 12.7),
    "S-DD1": (2.3, 0.6, 5.4, 1.5),
    "S-DD2": (1.5, 0.4, 5.3, 1.7),
    "S-DD3": (1.4, 0.4, 5.7, 1.7),
    "S-DD4": (1.0, 0.2, 8.0, 1.8),
    "S-DI1": (1.8, 0.5, 5.0, 1.4),
    "S-DI2": (1.1, 0.3, 4.2, 1.0),
    "C-Base": (2.6, 0.8, 100.0, 38.9),
    "C-R1": (1.0, 0.3, 50.0, 19.5),
    "C-R2": (2.8, 0.8, 62.5, 21.1),
    "C-R3": (3.7, 1.1, 100.0, 29.9),
    "C-A4": (3.7, 0.8, 100.0, 22.8),
    "C-A5": (2.4, 0.6, 100.0, 28.2),
    "I-Base": (0.8, 0.2, 58.9, 22.6),
    "I-R1": (0.9, 0.3, 50.0, 14.8),
    "I-R2": (0.7, 0.2, 30.0, 8.1),
    "I-R3": (1.2, 0.4, 44.7, 13.4),
    "I-A4": (0.8, 0.2, 40.0, 14.5),
    "I-A5": (1.0, 0.3, 50.0, 23.2),
    "A-Base": (1.7, 0.5, 5.8, 1.8),
    "A-L2": (8.0, 2.4, 31.1, 8.8),
    "A-ALM": (4.5, 1.2, 9.3, 3.0),
    "N-Base": (0.0, 0.0, 0.0, 0.0),
    "N-Flow": (2.5, 0.6, 3.6, 0.9),
}

# --------------------------------------------------------------------------- findings
#: Finding 1 (Sec. 3.1): the largest overall MaxDiff per metric, percentage points:
#: metric → (technique, MaxDiff, lowest run, highest run).
FINDING_1 = {"DP": ("A-L2", 12.6, 27.3, 39.9), "DI_BAR": ("S-GR", 11.8, 21.3, 33.1)}

#: Finding 1: a complete single-class failure, per-class DI-bar MaxDiff of 100 %.
FINDING_1_PER_CLASS_MAX = 100.0

#: Sec. 1: one FIT run fair and another unfair under the 20 % DI-bar threshold (N-Flow).
INTRO_DI_BAR_RUNS = {"fair run": 17.9, "unfair run": 20.4, "threshold": 20.0}

#: Finding 2 example (Secs. 1 and 3.2): S-GR against S-Base on BA, percent and p-values.
FINDING_2_EXAMPLE = {
    "baseline": "S-Base",
    "treated": "S-GR",
    "metric": "BA",
    "mean_baseline": 7.4,
    "mean_treated": 8.7,
    "single_run_baseline": 7.8,
    "single_run_treated": 6.1,
    "mw_p": 0.0011,
    "levene_p": 0.0005,
}

#: Sec. 3.2: of 154 technique × metric experiments, ranges overlapping the baseline's,
#: and mean worse than baseline while one run beats one baseline run.
EXPERIMENTS = 154
RANGES_OVERLAP = 34  # 22.1 %
SINGLE_RUN_REVERSAL = 14  # 9.1 %

#: Finding 3: mitigation techniques that increase at least one bias metric.
FINDING_3 = {"increase at least one metric": 15, "techniques": 22}

#: Finding 4: experiments that reduce bias, and those among them with a cost.
FINDING_4 = {
    "experiments": 154,
    "reduce bias": 103,
    "with a cost": 70,
    "higher fairness variance": 36,
    "lower accuracy": 54,
    "higher accuracy variance": 15,
    "all three costs": 8,
    "share with a cost": 68.0,
}

#: Fig. 1 text: statistically significant improvements with a "huge" effect.
FIG_1_HUGE = {"huge": 96, "significant improvements": 103}

#: App. E.2: PyTorch deterministic-mode training-time overhead, percent.
DETERMINISTIC_OVERHEAD = {"S-Base": 17.8, "ResNet101": 20.8, "DenseNet121": 14.1}

#: Scale of the study (Sec. 3): models trained and GPU hours.
STUDY_SCALE = {
    "techniques": 27,
    "runs per technique": 16,
    "models": 432,
    "experiments": 189,
    "bias values": 3024,
    "hours": 7117,
    "months": 9.8,
}

# --------------------------------------------------------------------------- survey
#: Table 5 — the literature survey, as printed: (paper, reference number, uses multiple
#: runs, reports mean, STDEV, range); "-" = not applicable.
TABLE_5 = (
    ("Li et al.", 54, "N", "-", "-", "-"),
    ("Min et al.", 66, "N", "-", "-", "-"),
    ("Wang and Deng", 97, "N", "-", "-", "-"),
    ("Wang et al.", 99, "Y", "Y", "Y", "Y"),
    ("Quadrianto et al.", 75, "Y", "Y", "Y", "N"),
    ("Wang et al.", 98, "N", "-", "-", "-"),
    ("Lokhande et al.", 59, "Y", "Y", "Y", "Y"),
    ("Sarhan et al.", 83, "N", "-", "-", "-"),
    ("Rockwell and Fouhey", 80, "N", "-", "-", "-"),
    ("Kehrenberg et al.", 47, "N", "-", "-", "-"),
    ("Hendricks et al.", 37, "N", "-", "-", "-"),
    ("Savani et al.", 84, "Y", "Y", "N", "Y"),
    ("Vig et al.", 95, "N", "-", "-", "-"),
    ("Nam et al.", 69, "Y", "Y", "N", "Y"),
    ("Tan and Celis", 92, "N", "-", "-", "-"),
    ("Grover et al.", 33, "Y", "Y", "Y", "Y"),
    ("McDuff et al.", 62, "Y", "Y", "N", "Y"),
    ("Creager et al.", 21, "N", "-", "-", "-"),
    ("Pryzant et al.", 74, "N", "-", "-", "-"),
    ("Guo et al.", 34, "N", "-", "-", "-"),
    ("Dev et al.", 22, "Y", "Y", "N", "Y"),
    ("Singh et al.", 89, "N", "-", "-", "-"),
    ("Sen and Ganguly", 87, "N", "-", "-", "-"),
    ("Adel et al.", 1, "Y", "Y", "N", "N"),
    ("Nabi and Shpitser", 68, "N", "-", "-", "-"),
    ("Black et al.", 11, "Y", "Y", "Y", "N"),
    ("Ryu et al.", 81, "N", "-", "-", "-"),
    ("Shen et al.", 88, "N", "-", "-", "-"),
    ("Wadsworth et al.", 96, "N", "-", "-", "-"),
    ("Hendricks et al.", 38, "N", "-", "-", "-"),
    ("Blodgett and O'Connor", 12, "N", "-", "-", "-"),
    ("Beutel et al.", 8, "Y", "Y", "N", "Y"),
)

#: Finding 5: DL-fairness papers per year in the survey (2017 and 2020) and the growth.
FINDING_5 = {"2017": 2, "2020": 17, "growth %": 750.0}

#: Finding 6: papers that use multiple identical runs.
FINDING_6 = {"multiple runs": 11, "papers": 32, "share %": 34.4}

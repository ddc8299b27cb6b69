"""Seed 000 (Kuzucu et al., "Uncertainty as a Fairness Measure"), values as printed.

Per-group cells are ``(G0, G1)`` pairs or dicts keyed by the book's group labels; ratio
rows are single numbers ``F = M(G0) / M(G1)``. Measure keys: ``n`` (sample size), ``ACC
PPV NPV FPR FNR`` (performance), ``U_e U_a U_p`` (epistemic, aleatoric, predictive
uncertainty), ``F_SP F_EOpp F_EOdd F_EAcc`` (point-based fairness; the paper's single
``F_EOdd`` does not say which y, ERRATA) and ``F_Epis F_Alea F_Pred``
(uncertainty-based). Nothing here is a result of ours.
"""

import math

__all__ = [
    "COMPAS_ROWS",
    "DVLOG_TRUNCATION_S",
    "FLAG_THRESHOLD",
    "SETTINGS",
    "TABLE_1",
    "TABLE_1_PATTERN",
    "TABLE_2_GROUPS",
    "TABLE_2_RATIOS",
    "TABLE_3_GROUPS",
    "TABLE_3_RATIOS",
    "TABLE_4",
    "TABLE_5_F_SAMPLE_SIZE_CORRECTED",
    "TABLE_5_GROUPS",
    "TABLE_5_RATIOS",
    "TABLE_6",
    "TABLE_7",
    "TABLE_7_SAMPLE_SIZES",
]


#: The paper's threshold: a ratio F is "unfair" (highlighted) when |F − 1| > 0.2.
FLAG_THRESHOLD = 0.2

#: Sec. 5.2's training settings, by data set. ``T`` = Monte Carlo samples at prediction,
#: ``mc_train`` = weight samples per step, ``lam`` = λ of Eq. 22, the prior as corrected in
#: ERRATA (π = 0.5, σ1 = e^0, σ2 = e^−6), posterior means initialised from N(0, 1).
SETTINGS = {
    "synthetic": {"hidden_sizes": (), "epochs": 5, "batch_size": 8},
    "compas": {"hidden_sizes": (100,), "epochs": 10, "batch_size": 256},
    "adult": {"hidden_sizes": (), "epochs": 5, "batch_size": 256},
    "dvlog": {"n_members": 5, "epochs": 50, "batch_size": 32, "lr": 2e-4, "dropout": 0.1},
    "common": {
        "T": 10,
        "mc_train": 10,
        "lam": 2000.0,
        "prior_pi": 0.5,
        "prior_sigma1": 1.0,
        "prior_sigma2": math.exp(-6),
        "mu_init_std": 1.0,
        "synthetic_test_share": 0.2,
        "n_per_cell": 100,
    },
}

_PERF = ("ACC", "PPV", "NPV", "FPR", "FNR", "U_e", "U_a", "U_p")
_RATIOS = ("F_SP", "F_EOpp", "F_EOdd", "F_EAcc", "F_Epis", "F_Alea", "F_Pred")


def _cells(values):
    return dict(zip(_PERF, values, strict=True))


def _ratios(values):
    return dict(zip(_RATIOS, values, strict=True))


#: Table 1 — SD1, SD2, SD3: per-group (G0, G1) rows and the ratios.
TABLE_1 = {
    "SD1": {
        "groups": {
            0: _cells((0.95, 0.95, 0.94, 0.06, 0.05, 0.0001, 0.4926, 0.4927)),
            1: _cells((0.95, 0.90, 0.95, 0.05, 0.05, 0.0001, 0.1053, 0.1054)),
        },
        "ratios": _ratios((1.07, 1.00, 1.05, 1.00, 1.01, 4.68, 4.67)),
    },
    "SD2": {
        "groups": {
            0: _cells((0.95, 0.95, 0.94, 0.05, 0.05, 0.0011, 0.1915, 0.1926)),
            1: _cells((0.95, 0.95, 0.94, 0.06, 0.05, 0.0004, 0.2193, 0.2197)),
        },
        "ratios": _ratios((1.00, 1.00, 0.95, 1.00, 2.75, 0.87, 0.88)),
    },
    "SD3": {
        "groups": {
            0: _cells((0.74, 0.62, 0.93, 0.38, 0.07, 0.0002, 0.3349, 0.3351)),
            1: _cells((0.93, 0.96, 0.91, 0.04, 0.08, 0.0002, 0.3229, 0.3231)),
        },
        "ratios": _ratios((1.17, 1.01, 7.90, 0.79, 1.05, 1.04, 1.04)),
    },
}

#: Sec. 6.1's reading of Table 1: which ratios the paper calls unfair on each data set.
TABLE_1_PATTERN = {
    "SD1": "fair by every point-based ratio, unfair by F_Alea",
    "SD2": "fair by every point-based ratio, unfair by F_Epis",
    "SD3": "unfair by a point-based ratio (F_EOdd, F_EAcc), fair by every uncertainty ratio",
}

#: Table 3 — COMPAS per group (Table 2 prints the race and gender columns again, with the
#: same values). Sample sizes are those of the whole filtered file (ERRATA).
TABLE_3_GROUPS = {
    "B": {"n": 3175, **_cells((0.70, 0.69, 0.72, 0.34, 0.25, 0.0006, 0.2299, 0.2305))},
    "W": {"n": 2103, **_cells((0.68, 0.68, 0.68, 0.10, 0.66, 0.0004, 0.1578, 0.1583))},
    "<25": {"n": 1347, **_cells((0.64, 0.64, 0.63, 0.41, 0.32, 0.0010, 0.3459, 0.3469))},
    "25-45": {"n": 3532, **_cells((0.71, 0.72, 0.70, 0.18, 0.44, 0.0005, 0.1712, 0.1717))},
    ">45": {"n": 1293, **_cells((0.75, 0.64, 0.78, 0.12, 0.54, 0.0002, 0.1027, 0.1029))},
    "F": {"n": 1175, **_cells((0.77, 0.70, 0.78, 0.05, 0.67, 0.0003, 0.1599, 0.1602))},
    "M": {"n": 4997, **_cells((0.68, 0.68, 0.68, 0.25, 0.39, 0.0006, 0.2053, 0.2059))},
}

#: Table 3's ratios by attribute: (G0, G1) and the values.
TABLE_3_RATIOS = {
    "race": {"pair": ("B", "W"), **_ratios((2.84, 2.19, 1.57, 1.03, 1.55, 1.46, 1.46))},
    "age": {"pair": ("<25", ">45"), **_ratios((2.44, 1.48, 2.37, 0.85, 4.35, 3.36, 3.37))},
    "sex": {"pair": ("F", "M"), **_ratios((0.31, 0.54, 0.40, 1.13, 0.50, 0.78, 0.78))},
}

#: Table 2 — the race and gender columns of Table 3, printed again.
TABLE_2_GROUPS = {g: TABLE_3_GROUPS[g] for g in ("B", "W", "F", "M")}
TABLE_2_RATIOS = {a: TABLE_3_RATIOS[a] for a in ("race", "sex")}

#: Table 4 — rows per group and label, (Y = 0, Y = 1). COMPAS: the whole filtered file;
#: Adult: the training file without '?' rows (ERRATA).
TABLE_4 = {
    "COMPAS": {"B": (1514, 1661), "W": (1281, 822), "F": (762, 413), "M": (2601, 2396)},
    "Adult": {"B": (2451, 366), "W": (19094, 6839), "F": (8670, 1112), "M": (13984, 6396)},
}

#: Table 5 — Adult per group. The F sample size is printed 9,872; ERRATA: 9,782. Printed
#: U_e of W and M are "6e-7*" and "6e-8*"; U_a is printed 0.01 for every group although
#: U_p (= U_e + U_a) is printed smaller (0.0003–0.0008), so the U rows are not
#: self-consistent as printed.
TABLE_5_GROUPS = {
    "B": {"n": 2817, **_cells((0.86, 0.40, 0.91, 0.07, 0.67, 0.0001, 0.01, 0.0007))},
    "W": {"n": 25933, **_cells((0.77, 0.60, 0.79, 0.07, 0.69, 6e-7, 0.01, 0.0004))},
    "F": {"n": 9872, **_cells((0.87, 0.39, 0.91, 0.06, 0.68, 0.0001, 0.01, 0.0008))},
    "M": {"n": 20380, **_cells((0.73, 0.64, 0.75, 0.08, 0.69, 6e-8, 0.01, 0.0003))},
}
TABLE_5_F_SAMPLE_SIZE_CORRECTED = 9782

TABLE_5_RATIOS = {
    "race": {"pair": ("B", "W"), **_ratios((0.75, 1.08, 0.87, 1.12, 151.0, 1.00, 1.49))},
    "sex": {"pair": ("F", "M"), **_ratios((0.62, 1.04, 0.79, 1.18, 521.0, 1.00, 2.65))},
}

#: Table 6 — D-Vlog by gender and label: rows, mean duration (s), mean truncation (s;
#: negative = zero padding). F, Y = 0 is printed "2666"; 639 − 373 = 266.
TABLE_6 = {
    ("M", 0): {"n": 140, "duration_s": 483, "truncation_s": -158},
    ("M", 1): {"n": 182, "duration_s": 583, "truncation_s": -13},
    ("F", 0): {"n": 266, "duration_s": 587, "truncation_s": -9},
    ("F", 1): {"n": 373, "duration_s": 667, "truncation_s": 71},
}
DVLOG_TRUNCATION_S = 596

#: Table 7 — D-Vlog with a deep ensemble of 5 (F = G0, M = G1), by modality.
TABLE_7 = {
    "multi-modal": {
        "groups": {
            "F": _cells((0.59, 0.62, 0.54, 0.57, 0.28, 0.006, 0.45, 0.46)),
            "M": _cells((0.73, 0.78, 0.66, 0.38, 0.20, 0.006, 0.45, 0.46)),
        },
        "ratios": _ratios((1.01, 0.89, 1.68, 0.81, 1.00, 1.00, 1.00)),
    },
    "audio": {
        "groups": {
            "F": _cells((0.63, 0.72, 0.56, 0.29, 0.43, 0.022, 0.28, 0.31)),
            "M": _cells((0.75, 0.82, 0.66, 0.28, 0.22, 0.016, 0.22, 0.24)),
        },
        "ratios": _ratios((0.75, 0.73, 1.40, 0.84, 1.38, 1.32, 1.32)),
    },
    "visual": {
        "groups": {
            "F": _cells((0.63, 0.65, 0.61, 0.54, 0.23, 0.034, 0.10, 0.14)),
            "M": _cells((0.66, 0.69, 0.57, 0.61, 0.18, 0.035, 0.09, 0.13)),
        },
        "ratios": _ratios((0.91, 0.94, 0.94, 0.96, 0.96, 1.11, 1.07)),
    },
}
TABLE_7_SAMPLE_SIZES = {"F": 639, "M": 322}

#: Whole-data counts of the COMPAS file the paper uses (Sec. 5.1.4, ERRATA).
COMPAS_ROWS = 6172

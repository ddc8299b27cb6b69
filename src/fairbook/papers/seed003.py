"""Seed 003 (Briscoe), values as printed. Confusion matrices are ``[TP, FN, FP, TN]``."""

import math

__all__ = [
    "BERRY_ESSEEN_C0",
    "COMPAS_CPS_MATRICES",
    "CPS_CLAIMS",
    "CPS_PROTOCOL",
    "EQ_4_3_4_4_SIZES",
    "EQ_4_6_CELL_COUNTS",
    "EXAMPLE_4_5_1",
    "FIG_3_3_NB_PACIFIC_ISLANDER",
    "FIG_4_1_PPR",
    "FIG_4_3_DRAWS",
    "HYDRAGAN_N_SYNTHETIC",
    "LORENZ_PROTOCOL",
    "NORMAL_RULE_OF_THUMB",
    "PEIZER_PRATT_MAX_ERROR",
    "PROPUBLICA_GENERAL_ALL",
    "PROPUBLICA_GENERAL_RATES",
    "PROPUBLICA_VIOLENT_RATES",
    "PTN_COST",
    "TABLE_3_1",
    "TABLE_3_1_LAW",
    "TABLE_3_3",
    "TABLE_3_4",
    "TABLE_3_5",
    "TABLE_4_1",
    "TABLE_5_2_CHAOS",
    "THEOREM_4_3",
]


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

# --------------------------------------------------------------------------- Chapter 4
#: Eqs. 4.3–4.4: the number of confusion matrices in M(1) and M(2) as listed.
EQ_4_3_4_4_SIZES = {1: 4, 2: 10}

#: Sec. 4.3 and Eq. 4.6: C(x; n), how often value x appears in one cell over M(n),
#: as (x, n) → count: C(1; 1) = 1, C(0; 1) = 3 and (C(2; 2), C(1; 2), C(0; 2)) = (1, 3, 6).
EQ_4_6_CELL_COUNTS = {(1, 1): 1, (0, 1): 3, (2, 2): 1, (1, 2): 3, (0, 2): 6}

#: Fig. 4.1 (Folktables income, multiracial individuals): the predicted positive rate the
#: Monte Carlo converges to, printed as 1365/5956 ≈ 0.23.
FIG_4_1_PPR = {"predicted_positive": 1365, "n": 5956, "printed": 0.23}

#: Theorem 4.3's table as printed (n = population size, n1 + n2 = n for the two groups of
#: treatment equality). The values are computed by
#: :func:`fairbook.stats.combinatorics.hole_count_closed_form`,
#: :func:`~fairbook.stats.combinatorics.pt_hole_bounds` and
#: :func:`~fairbook.stats.combinatorics.te_hole_count_closed_form` (``as_printed=True``).
THEOREM_4_3 = {
    "Binomial metrics": "0",
    "F1": "1",
    "Joint ratio metrics": "n + 1",
    "MCC": "4n",
    "PT": "≥ 2n + 2 and < e^γ n log log n + 0.6483 n / log log n (n ≥ 3)",
    "TE": "C(n1 + 2, 2) + C(n2 + 2, 2) − 1",
}

#: Sec. 4.5.1 worked example: n = 100, p = 0.75, S_obs = 0.80 gives k = 80, μ = 75,
#: σ ≈ 4.33, z ≈ 1.27 and P(S ≤ 0.80) ≈ Φ(1.27) ≈ 0.90.
EXAMPLE_4_5_1 = {
    "n": 100,
    "p": 0.75,
    "s_obs": 0.80,
    "k": 80,
    "mu": 75.0,
    "sigma": 4.33,
    "z": 1.27,
    "cdf": 0.90,
}

#: Sec. 4.5.1: the normal approximation is used "when np ≥ 5 and nq ≥ 5".
NORMAL_RULE_OF_THUMB = 5

#: Sec. 4.5.4 / Fig. 4.3: draws per sample size ("one million samples for each n").
FIG_4_3_DRAWS = 1_000_000

#: Eq. 4.45: the Berry–Esseen constant C0 lies between these values (Esseen 1956,
#: Shevtsova 2010).
BERRY_ESSEEN_C0 = (0.4097, 0.5600)

#: Sec. 4.5.4: Peizer–Pratt (Eqs. 4.46–4.47) is within 0.1 % "for all x, n such that
#: min(x + 1, n − x) ≥ 2" (citing Johnson et al. 2005).
PEIZER_PRATT_MAX_ERROR = 0.001

#: Table 4.1 as printed: the Peizer–Pratt parameters (x, p, q, n) per metric family.
TABLE_4_1 = {
    "Binomial metrics": ("k_{i+j}", "p", "q", "n"),
    "B": ("k_FP − k_FN", "p+ − p−", "p0", "n"),
}

#: Sec. 4.6.1–4.6.2: the Cross-Prior Smoothing protocol (sizes 5 … 150, one million draws
#: per size and metric, λ = 5 in "all experiments", compared at λ = 5, 10, 20 and additive
#: ε = 0, 1e-10, 1).
CPS_PROTOCOL = {
    "n_min": 5,
    "n_max": 150,
    "n_draws": 1_000_000,
    "lams": (5, 10, 20),
    "eps": (0.0, 1e-10, 1.0),
    "lam_default": 5,
}

#: Sec. 4.6.2's qualitative claims about Figs. 4.4–4.6 (metrics named in the text).
CPS_CLAIMS = {
    "eps1_worse_than_raw": ("FOR", "NPV", "PREV"),
    "eps1_better_than_cps10": ("FNR", "TPR"),
}

#: The COMPAS confusion matrices of the Sec. 4.6.2 experiment ("the confusion matrices
#: reported in ProPublica"), ``[TP, FN, FP, TN]`` with positive = recidivist and predicted
#: positive = Medium/High score. Not printed in the extracted text; they were given with the
#: chapter's issue as [[TP, FN], [FP, TN]]. They are ProPublica's *violent* recidivism
#: two-year truth tables (Larson et al. 2016, "Compas Analysis" notebook, ``vtable`` on
#: ``cox-violent-parsed.csv``), see :data:`PROPUBLICA_VIOLENT_RATES`.
COMPAS_CPS_MATRICES = {
    "African-American": (273, 170, 1043, 1692),
    "Caucasian": (77, 129, 380, 1679),
    "all": (389, 347, 1597, 4121),
}

#: ProPublica's printed error rates in percent (Compas Analysis notebook, Larson et al.
#: 2016), the check that identifies the matrices above. ``violent``: "38.14 / 18.46" (FPR,
#: Black / White) and "62.62 / 38.37" (FNR, White / Black); ``general`` (two-year general
#: recidivism, 7214 people): FPR 32.35 overall, 44.85 Black, 23.45 White and FNR 47.72 White,
#: 27.99 Black.
PROPUBLICA_VIOLENT_RATES = {
    "African-American": {"FPR": 38.14, "FNR": 38.37},
    "Caucasian": {"FPR": 18.46, "FNR": 62.62},
}
PROPUBLICA_GENERAL_RATES = {
    "all": {"FPR": 32.35},
    "African-American": {"FPR": 44.85, "FNR": 27.99},
    "Caucasian": {"FPR": 23.45, "FNR": 47.72},
}
#: ProPublica's general two-year table for all defendants (Survived: Low 2681, High 1282;
#: Recidivated: Low 1216, High 2035 — the four cells its "Total pop" line adds up to 7214),
#: as ``[TP, FN, FP, TN]`` with positive = recidivist and High = predicted positive.
PROPUBLICA_GENERAL_ALL = (2035, 1216, 1282, 2681)

# --------------------------------------------------------------------------- Chapter 5
#: Table 5.2, the chaos (Lorenz) columns: skill scores of PTN's CRPS against the
#: deterministic forecaster turned Normal ("Det.") and against TiDE trained with the ordered
#: CRPS, at the quartiles of each model's CRPS, and the percent of forecasts PTN improves.
#: Aggregated over seven runs. The microclimate columns (NBM 0.42/0.59/0.70/96.4 %,
#: TiDE 0.21/0.18/0.16/77.5 %) use weather data that is not public.
TABLE_5_2_CHAOS = {
    "Det.": {"Q1": 0.40, "Q2": 0.57, "Q3": 0.68, "percent_improved": 94.3},
    "TiDE": {"Q1": 0.82, "Q2": 0.73, "Q3": 0.56, "percent_improved": 99.8},
}

#: Sec. 5.3.2 / 5.5: the Lorenz protocol as printed.
LORENZ_PROTOCOL = {
    "sigma": (8.0, 12.0),
    "rho": (27.9, 28.1),
    "beta": (7.9 / 3, 8.1 / 3),
    "x0": (-20.0, 20.0),
    "y0": (-20.0, 20.0),
    "z0": (0.0, 40.0),
    "t_end": 100.0,
    "n_times": 1000,
    "n_systems": 50,
    "n_initial": 125,
    "history": 16,
    "horizon": 16,
    "n_forecasts": 10,
    "n_quantiles": 111,
    "omega": 0.0075,
    "epochs": 30,
    "arch_steps": 5,
    "weight_steps": 10,
    "batch_size": 64,
    "runs": 7,
}

#: Sec. 5.5: compute cost as printed (RTX 4090, i9-13900K, 96 GB RAM).
PTN_COST = {
    "lorenz_search_hours": 6.5,
    "weather_search_hours": 8.5,
    "network_training_seconds": (30, 60),
    "lorenz_data_gb": 2,
}

# --------------------------------------------------------------------------- Sec. 3.5
#: Table 3.4 as printed (CASAS, Conditional HydraGAN): metric → class → Synthetic / Real /
#: Improves, where Improves = |Real − ideal| − |Synthetic − ideal| (ideal 1 for DI, else 0)
#: computed before rounding ("some improvement results seem off due to rounding").
#: "Ages 63-90" is the younger 75 %, "Ages 90-95" the older 25 %. The printed "-0.000" of
#: OFI / Female is stored as -0.0.
TABLE_3_4 = {
    "OFI": {
        "Ages 63-90": {"Synthetic": 0.002, "Real": 0.004, "Improves": 0.002},
        "Ages 90-95": {"Synthetic": 0.026, "Real": 0.030, "Improves": 0.005},
        "Female": {"Synthetic": -0.001, "Real": -0.001, "Improves": -0.0},
        "Male": {"Synthetic": 0.026, "Real": 0.033, "Improves": 0.007},
    },
    "DPPL": {
        "Ages 63-90": {"Synthetic": -0.056, "Real": -0.055, "Improves": -0.002},
        "Ages 90-95": {"Synthetic": 0.165, "Real": 0.170, "Improves": 0.005},
        "Female": {"Synthetic": 0.012, "Real": 0.012, "Improves": 0.000},
        "Male": {"Synthetic": -0.043, "Real": -0.036, "Improves": -0.007},
    },
    "DI": {
        "Ages 63-90": {"Synthetic": 1.060, "Real": 1.109, "Improves": 0.049},
        "Ages 90-95": {"Synthetic": 1.778, "Real": 1.891, "Improves": 0.113},
        "Female": {"Synthetic": 1.280, "Real": 1.340, "Improves": 0.060},
        "Male": {"Synthetic": 1.103, "Real": 1.174, "Improves": 0.071},
    },
    "DCA": {
        "Ages 63-90": {"Synthetic": 0.003, "Real": 0.012, "Improves": 0.009},
        "Ages 90-95": {"Synthetic": -0.100, "Real": -0.151, "Improves": 0.051},
        "Female": {"Synthetic": 0.046, "Real": 0.061, "Improves": 0.014},
        "Male": {"Synthetic": -0.172, "Real": -0.219, "Improves": 0.048},
    },
}

#: Table 3.5 as printed: divergence to the uniform target, metric → part → values
#: (Improvement in percent, = 100 (Real − Synthetic) / Real).
TABLE_3_5 = {
    "KS statistic": {
        "Activities": {"Synthetic": 0.863, "Real": 0.900, "Improvement %": 4.11},
        "Individuals": {"Synthetic": 0.000, "Real": 0.733, "Improvement %": 100.0},
    },
    "KL divergence": {
        "Activities": {"Synthetic": 1.822, "Real": 2.302, "Improvement %": 20.9},
        "Individuals": {"Synthetic": 0.000, "Real": 0.252, "Improvement %": 100.0},
    },
    "JS distance": {
        "Activities": {"Synthetic": 0.652, "Real": 0.725, "Improvement %": 10.1},
        "Individuals": {"Synthetic": 0.000, "Real": 0.250, "Improvement %": 100.0},
    },
}

#: Sec. 3.5.5: synthetic points generated for the expanded data set.
HYDRAGAN_N_SYNTHETIC = 3_072_000

"""Seed 004 (Qian et al.), values as printed."""

#: Table 3 — the running example: rows (group, true label) → (pred Sport, pred Cook).
TABLE_3_COUNTS = {
    ("Female", "Sport"): (80, 20),
    ("Female", "Cook"): (10, 90),
    ("Male", "Sport"): (60, 40),
    ("Male", "Cook"): (70, 30),
}

#: Table 3 — the seven metrics, in percent, as printed.
TABLE_3_METRICS = {"DP": 20.0, "DI_BAR": 33.6, "SPSF": 10.0, "FPSF": 20.0, "EOFP": 40.0,
                   "EOTP": 40.0, "BA": 10.1}

"""Tests of :mod:`fairbook_book.chapters.small_groups.figures`: Figs. 4.1–4.6 and the
chapter's plots draw what they are given, on the axes they are given (seed 003 ch. 4).
"""

from fairbook_book.chapters import small_groups as sg


# ---------------------------------------------------- Sec. 4.3: the space of confusion matrices
def test_plot_fig_4_1():
    table = sg.fig_4_1_monte_carlo([7, 12, 2, 128], sizes=[10, 60, 150], n_draws=4000, seed=3)
    ax = sg.plot_fig_4_1(table)
    assert ax.get_ylabel() == "PPR"


def test_plot_space_cdfs():
    cdfs = sg.space_cdfs(["ACC", "TPR", "MCC"], [4, 12], hole_values={"MCC": 0.0})
    axes = sg.plot_space_cdfs(cdfs)
    assert len(axes) == 4


# ----------------------------------------------------------- Sec. 4.4: the holes of the metrics
def test_plot_pt_holes():
    table = sg.pt_hole_table(30)
    assert sg.plot_pt_holes(table).get_xlabel() == "n"


# ----------------------------- Sec. 4.5: the law of a metric under MATCH and its approximations
def test_moment_and_pmf_plots():
    axes = sg.plot_moments(sg.moments_table(metrics=["B"], sizes=[5, 6], n_draws=50))
    assert len(axes) == 2
    assert sg.plot_pmfs("B", sizes=[5, 20]).get_title() == "B"


def test_plot_approximation_errors():
    axes = sg.plot_approximation_errors(sg.approximation_errors(sizes=[5, 50, 200]))
    assert [ax.get_title() for ax in axes] == ["ACC", "B", "TPR", "PPV"]


# --------------------------------- Sec. 4.6: the Cross-Prior Smoothing protocol (Figs. 4.4–4.6)
def test_plot_mse(toy_cps_run):
    _, run = toy_cps_run()
    axes = sg.plot_mse(
        run, group="Adult: small", metrics=["TPR", "PPR"], settings_shown=["raw", "CPS λ = 5"]
    )
    assert [ax.get_title() for ax in axes] == ["TPR", "PPR"]

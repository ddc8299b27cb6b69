"""Conditional multi-objective GAN for tabular data (Conditional HydraGAN, seed 003 sec. 3.5).

* :mod:`~fairbook.generative.tabular` — continuous / categorical encoding.
* :mod:`~fairbook.generative.wgan` — generator, critic and the WGAN-GP gradient penalty.
* :mod:`~fairbook.generative.hydragan` — :class:`ConditionalHydraGAN` (fit / sample).
* :mod:`~fairbook.generative.divergence` — KS, KL and JS of a categorical distribution
  to a target.
"""

from fairbook.generative.divergence import (
    divergences,
    improvement_percent,
    js_distance,
    kl_divergence,
    ks_statistic,
    proportions,
    rowwise_divergences,
)
from fairbook.generative.hydragan import ConditionalHydraGAN, allocate
from fairbook.generative.tabular import ColumnSpec, TabularEncoder
from fairbook.generative.wgan import Critic, Generator, gradient_penalty

__all__ = [
    "ColumnSpec",
    "ConditionalHydraGAN",
    "Critic",
    "Generator",
    "TabularEncoder",
    "allocate",
    "divergences",
    "gradient_penalty",
    "improvement_percent",
    "js_distance",
    "kl_divergence",
    "ks_statistic",
    "proportions",
    "rowwise_divergences",
]

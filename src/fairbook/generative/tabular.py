"""Encoding of a mixed tabular data set for a GAN.

Continuous columns are min-max scaled to ``[-1, 1]`` (the generator ends them with
``tanh``); categorical columns are one-hot encoded (the generator ends each with a
softmax, and the synthetic rows keep the softmax probabilities, as seed 003 sec. 3.5.4
does for its activities and sensors).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["ColumnSpec", "TabularEncoder"]


@dataclass(frozen=True)
class ColumnSpec:
    """One encoded column: its kind, its slice in the encoded matrix and its metadata."""

    name: str
    kind: str  # "continuous" | "categorical"
    start: int
    stop: int
    categories: tuple = ()
    low: float = np.nan
    high: float = np.nan

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


def _names(value, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = (value,)
    try:
        names = tuple(value)
    except TypeError:
        raise ValueError(f"{what} must be a list of column names, got {value!r}") from None
    if not all(isinstance(n, str) for n in names):
        raise ValueError(f"{what} must be column names (str), got {names!r}")
    return names


class TabularEncoder:
    """Encode continuous (min-max to [-1, 1]) and categorical (one-hot) columns.

    Parameters
    ----------
    continuous, categorical : sequence of str
        Column names; a column may appear in one list only.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"x": [0.0, 5.0, 10.0], "c": ["b", "a", "b"]})
    >>> enc = TabularEncoder(continuous=["x"], categorical=["c"]).fit(df)
    >>> enc.transform(df).tolist()
    [[-1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    >>> enc.inverse_transform(enc.transform(df))["c"].tolist()
    ['b', 'a', 'b']
    """

    def __init__(self, *, continuous=(), categorical=()):
        self.continuous = _names(continuous, "continuous")
        self.categorical = _names(categorical, "categorical")
        both = set(self.continuous) & set(self.categorical)
        if both:
            raise ValueError(f"columns {sorted(both)} are both continuous and categorical")
        names = self.continuous + self.categorical
        if len(set(names)) != len(names):
            raise ValueError(f"a column is listed twice: {names}")
        if not names:
            raise ValueError("give at least one continuous or categorical column")
        self.columns_: list[ColumnSpec] | None = None

    # ------------------------------------------------------------------ fitting
    def fit(self, df: pd.DataFrame) -> TabularEncoder:
        """Learn the ranges of the continuous columns and the categories of the others."""
        if not isinstance(df, pd.DataFrame):
            raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
        if len(df) == 0:
            raise ValueError("df is empty")
        missing = [c for c in (*self.continuous, *self.categorical) if c not in df.columns]
        if missing:
            raise ValueError(f"columns {missing} are not in the data (have {list(df.columns)})")
        specs, start = [], 0
        for name in self.continuous:
            col = df[name]
            if not pd.api.types.is_numeric_dtype(col):
                raise ValueError(f"continuous column {name!r} is not numeric ({col.dtype})")
            values = col.to_numpy(dtype=float)
            if not np.isfinite(values).all():
                raise ValueError(f"continuous column {name!r} has missing or infinite values")
            specs.append(
                ColumnSpec(
                    name,
                    "continuous",
                    start,
                    start + 1,
                    low=float(values.min()),
                    high=float(values.max()),
                )
            )
            start += 1
        for name in self.categorical:
            col = df[name]
            if col.isna().any():
                raise ValueError(f"categorical column {name!r} has missing values")
            cats = tuple(sorted(pd.unique(col), key=str))
            if len(cats) < 2:
                raise ValueError(
                    f"categorical column {name!r} needs two or more categories, has {list(cats)}"
                )
            specs.append(ColumnSpec(name, "categorical", start, start + len(cats), categories=cats))
            start += len(cats)
        self.columns_ = specs
        return self

    def _check_fitted(self):
        if self.columns_ is None:
            raise ValueError("the encoder is not fitted; call fit(df) first")

    @property
    def dim(self) -> int:
        """Width of the encoded matrix."""
        self._check_fitted()
        return self.columns_[-1].stop

    def spec(self, name: str) -> ColumnSpec:
        """The :class:`ColumnSpec` of column ``name``."""
        self._check_fitted()
        for s in self.columns_:
            if s.name == name:
                return s
        raise ValueError(f"unknown column {name!r}; known: {[s.name for s in self.columns_]}")

    def feature_names(self) -> list[str]:
        """Names of the encoded columns (``x`` or ``c=value``)."""
        self._check_fitted()
        out = []
        for s in self.columns_:
            out += [s.name] if s.kind == "continuous" else [f"{s.name}={c}" for c in s.categories]
        return out

    # ------------------------------------------------------------------ encoding
    def transform(self, df: pd.DataFrame) -> np.ndarray:
        """Encode ``df`` into a float32 matrix of width :attr:`dim`.

        Raises
        ------
        ValueError
            For a missing column or a category not seen by :meth:`fit`.
        """
        self._check_fitted()
        out = np.zeros((len(df), self.dim), dtype=np.float32)
        for s in self.columns_:
            if s.name not in df.columns:
                raise ValueError(f"column {s.name!r} is not in the data")
            if s.kind == "continuous":
                values = df[s.name].to_numpy(dtype=float)
                span = s.high - s.low
                scaled = np.zeros_like(values) if span == 0 else 2 * (values - s.low) / span - 1
                out[:, s.start] = scaled
            else:
                codes = pd.Index(list(s.categories)).get_indexer(df[s.name])
                if (codes < 0).any():
                    unseen = sorted(set(df[s.name][codes < 0].astype(str)))
                    raise ValueError(
                        f"column {s.name!r} has categories not seen in fit: {unseen[:5]}"
                    )
                out[np.arange(len(df)), s.start + codes] = 1.0
        return out

    def inverse_transform(
        self, x, *, probabilities: bool = False, rng: np.random.Generator | None = None
    ) -> pd.DataFrame:
        """Decode an encoded matrix back into a data frame.

        Parameters
        ----------
        x : array-like of shape (n, dim)
        probabilities : bool, default False
            Keep each categorical block as probability columns ``c=value`` (the softmax
            the generator produced) instead of one label per row.
        rng : numpy.random.Generator, optional
            If given, each categorical label is *drawn* from its row's probabilities (so
            the label proportions are unbiased for the softmax means); otherwise the
            argmax is taken.
        """
        self._check_fitted()
        x = np.asarray(x, dtype=float)
        if x.ndim != 2 or x.shape[1] != self.dim:
            raise ValueError(f"x must have shape (n, {self.dim}), got {x.shape}")
        data = {}
        for s in self.columns_:
            block = x[:, s.slice]
            if s.kind == "continuous":
                data[s.name] = s.low + (np.clip(block[:, 0], -1, 1) + 1) / 2 * (s.high - s.low)
            elif probabilities:
                for j, c in enumerate(s.categories):
                    data[f"{s.name}={c}"] = block[:, j]
            else:
                if rng is None:
                    idx = block.argmax(axis=1)
                else:
                    p = np.clip(block, 0, None)
                    p = p / p.sum(axis=1, keepdims=True)
                    u = rng.random(len(p))[:, None]
                    idx = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)
                data[s.name] = np.asarray(s.categories, dtype=object)[idx]
        return pd.DataFrame(data)

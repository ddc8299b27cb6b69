"""The one rule every chapter uses to turn a profile name and overrides into settings."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["choose_settings"]


def choose_settings(profiles: Mapping[str, Mapping], profile: str, overrides: Mapping) -> dict:
    """Copy ``profiles[profile]`` and apply the overrides that are not ``None``.

    Parameters
    ----------
    profiles : mapping
        Profile name (``"fast"``, ``"full"``) → settings.
    profile : str
    overrides : mapping
        Chapter parameters; ``None`` means "use the profile's value".

    Raises
    ------
    ValueError
        For an unknown profile or an override the profile does not define.

    Examples
    --------
    >>> choose_settings({"fast": {"n": 1}}, "fast", {"n": None})
    {'n': 1}
    >>> choose_settings({"fast": {"n": 1}}, "fast", {"n": 5})
    {'n': 5}
    """
    if profile not in profiles:
        raise ValueError(f"profile must be one of {list(profiles)}, got {profile!r}")
    chosen = dict(profiles[profile])
    unknown = set(overrides) - set(chosen)
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}; known: {sorted(chosen)}")
    chosen.update({k: v for k, v in overrides.items() if v is not None})
    return chosen

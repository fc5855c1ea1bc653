"""make_site: a Site from what a model's attention function received and returned, given by field name."""

from __future__ import annotations

import dataclasses
import types
import typing

import numpy as np

from attention.site import Site, _frozen


def _conversion(hint: object):
    """What make_site does to a value given for a field annotated `hint`: arrays frozen (read-only
    float32), token sequences made tuples, a plain float made a float; None passes through."""
    members = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if np.ndarray in members:
        return _frozen
    if any(typing.get_origin(m) is tuple for m in members):
        return lambda value: None if value is None else tuple(value)
    if hint is float:
        return float
    return _as_given


def _as_given(value: object) -> object:
    return value


_CONVERSIONS = {name: _conversion(hint) for name, hint in typing.get_type_hints(Site).items()}


def make_site(**values: object) -> Site:
    """A Site from what the model handed its attention function and what it got back, given by field
    name (query_tokens, q, k, v, scale, mask, model_weights, model_z, …): arrays become read-only
    float32, token lists tuples. The recomputation by core.py and the comparison happen when the site
    is first read."""
    unknown = sorted(set(values) - {f.name for f in dataclasses.fields(Site)})
    if unknown:
        raise TypeError(f"make_site() got unexpected fields: {', '.join(unknown)}")
    return Site(**{name: _CONVERSIONS[name](value) for name, value in values.items()})

"""Counting a trace's sites against the layers its model has: a site that was never captured, one
too many, or one under the wrong layer or kind must not pass unnoticed (Trace.site_problems)."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("encoder", "decoder", "cross")  # the order of trace.KINDS
# What counting the sites found (SiteProblem.reason).
SITE_PROBLEMS: tuple[str, ...] = ("missing", "extra", "mislabelled")


@dataclass(frozen=True)
class SiteProblem:
    """What counting the captured sites of one kind found wrong: sites `missing` (expected, not
    captured), `extra` (captured, not expected), or `mislabelled` (two sites claim one layer, or as
    many sites as expected under the wrong layer numbers or the wrong kind)."""

    kind: str  # one of trace.KINDS
    reason: str  # one of SITE_PROBLEMS
    layers: tuple[int, ...]  # the layers concerned


def count_sites(expected: dict[str, tuple[int, ...]], found: list[tuple[str, int]]) -> tuple[SiteProblem, ...]:
    """Compare the layers expected per kind with the (kind, layer) of every captured site."""
    got: dict[str, list[int]] = {}
    for kind, layer in found:
        got.setdefault(kind, []).append(layer)
    problems: list[SiteProblem] = []
    # A kind captured that the model does not have, with as many sites as an expected kind that got
    # none: the sites were given the wrong kind.
    unclaimed = {k: len(v) for k, v in expected.items() if v and not got.get(k)}
    for kind in KINDS:
        have = got.get(kind, [])
        if kind in expected or not have:
            continue
        match = next((k for k, n in unclaimed.items() if n == len(have)), None)
        if match is not None:
            del unclaimed[match]
        problems.append(SiteProblem(kind, "mislabelled" if match else "extra", tuple(sorted(set(have)))))
    relabelled = {k for k, v in expected.items() if v and not got.get(k)} - set(unclaimed)
    for kind in KINDS:
        if kind not in expected or kind in relabelled:  # already said under the kind it was given
            continue
        want, have = set(expected[kind]), got.get(kind, [])
        doubled = sorted({x for x in have if have.count(x) > 1})
        missing, extra = sorted(want - set(have)), sorted(set(have) - want)
        if doubled or (missing and len(missing) == len(extra)):
            problems.append(SiteProblem(kind, "mislabelled", tuple(doubled or extra)))
            continue
        if missing:
            problems.append(SiteProblem(kind, "missing", tuple(missing)))
        if extra:
            problems.append(SiteProblem(kind, "extra", tuple(extra)))
    return tuple(problems)

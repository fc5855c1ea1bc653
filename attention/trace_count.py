"""Counting a trace's sites against the layers its model has: a site that was never captured, one
too many, or one under the wrong layer or kind must not pass unnoticed (Trace.site_problems)."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("encoder", "decoder", "cross")  # the order of trace.KINDS
# What counting the sites found (SiteProblem.reason): "wrong_kind", sites given a kind the model does not
# have (as many as one of its kinds got none); "no_attention", a model with no attention layers at all.
# A site refused by its builder (never drawn) says why: "refused_" + one of REFUSALS.
COUNT_PROBLEMS: tuple[str, ...] = ("missing", "extra", "mislabelled", "wrong_kind", "no_attention")
# Why a capture refused a site (capture/checks.py): rows that are not a distribution ("rows"), negative
# weights ("negative"), a shape that is not (heads, query tokens, key tokens) ("shape"), weights in a
# layout with no exact token × token form ("layout": bucketed, chunked, global + local), or several
# attention calls of one layer with different weights ("calls").
REFUSALS: tuple[str, ...] = ("rows", "negative", "shape", "layout", "calls")
SITE_PROBLEMS: tuple[str, ...] = COUNT_PROBLEMS + tuple(f"refused_{r}" for r in REFUSALS)


@dataclass(frozen=True)
class SiteProblem:
    """What counting the captured sites of one kind found wrong: sites `missing` (expected, not
    captured), `extra` (captured, not expected), `mislabelled` (two sites claim one layer, or as many
    sites as expected under the wrong layer numbers), `wrong_kind` (as many sites as expected under a
    kind the model does not have), `no_attention` (the model has no attention layers), or a site
    refused before it was drawn (`refused_…`, one per REFUSALS)."""

    kind: str  # one of trace.KINDS
    reason: str  # one of SITE_PROBLEMS
    layers: tuple[int, ...]  # the layers concerned


def count_sites(expected: dict[str, tuple[int, ...]], found: list[tuple[str, int]],
                refused: tuple[SiteProblem, ...] = ()) -> tuple[SiteProblem, ...]:
    """Compare the layers expected per kind with the (kind, layer) of every captured site; a refused
    site counts as found (its own problem says why it is not drawn)."""
    if not expected and not found and not refused:
        return (SiteProblem("encoder", "no_attention", ()),)
    got: dict[str, list[int]] = {}
    for kind, layer in [*found, *((p.kind, x) for p in refused for x in p.layers)]:
        got.setdefault(kind, []).append(layer)
    problems: list[SiteProblem] = list(refused)
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
        problems.append(SiteProblem(kind, "wrong_kind" if match else "extra", tuple(sorted(set(have)))))
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

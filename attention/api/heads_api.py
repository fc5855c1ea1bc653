"""What heads do, in a notebook: head_roles (on a probe), head_role_proof (does the role matter?) and
head_atlas (on ordinary text). Formulas and sources: attention/analysis/head_roles.py, role_kinds.py, atlas.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from attention.api.model_names import MINILM, SMOLLM2, named

if TYPE_CHECKING:
    from attention.capture.role_proof import HeadRoles, RoleProof
    from attention.sources.atlas_run import Atlas


def _role_model(model: str):
    """The model head_roles and head_role_proof read.

    Args:
        model: a registry name or a folder.

    Returns:
        tuple: (trace_of(text) -> Trace, the LM-headed model or None, the model's name).
    """
    from attention import sources

    src = sources.get(model)
    if src.predicts == "next_token":  # the proof scores the next tokens: it needs the model's head
        lm = src.kept("writer")
        return (lambda text: src.run(lm, text).trace), lm, lm.name
    return (lambda text: src.trace(text)), None, ""


def head_roles(model: str = MINILM, seed: int = 0, length: int = 12, kind: str | None = None) -> HeadRoles:
    """What each head does: previous-token, duplicate-token, induction, sink, local and broad scores of
    every layer × head, on `length` random words (numpy seed `seed`) written twice.

    Args:
        model: "minilm" for all-MiniLM-L6-v2, "smollm2" for the built-in language model, "translator" for the
            built-in translator (its probe drawn from its own vocabularies), or a model folder.
        seed: the probe's numpy seed (attention/analysis/role_probes.py).
        length: the probe's words per copy.
        kind: the translator's "decoder" (None: the default, masked), "encoder" or "cross"; None elsewhere.

    Returns:
        HeadRoles: `.scores[role]` (layers, heads); `.top(role, k)` [TopHead(HeadId, score), …];
        `.sink_rate`; `.tokens`, `.start`, `.length` the probe as read; `.notes` the roles that do not apply
        (no causal mask; cross-attention has sink and broad only) and why; `.to_csv()`.
    """
    from attention import sources
    from attention.capture import role_proof

    model = named(model, MINILM, "head_roles")
    src = sources.get(model)
    if src.role_kinds or kind is not None:  # measured per kind of attention, on the source's own probe
        return src.head_roles(src.kept(), seed, length, kind)
    trace_of, _, name = _role_model(model)
    return role_proof.measure(trace_of, seed=seed, length=length, model=name)


def head_role_proof(model: str = SMOLLM2, role: str = "induction", seed: int = 0, length: int = 12,
                    ks=(1, 2, 3, 4, 5), draws: int = 8, probes: int = 3) -> RoleProof:
    """Does the role matter? The causal language model's loss on the repeated half of `probes` fresh
    probes with the role's top-k heads switched off, against k random heads off (`draws` per k).

    Args:
        model: "smollm2" or the folder of any causal LM.
        role: "previous", "duplicate", "induction", "sink", "local" or "broad".
        seed: the probe's seed, as head_roles().
        length: the probe's words per copy.
        ks: the numbers of heads switched off.
        draws: random sets of k heads per k.
        probes: fresh probes the loss is averaged over.

    Returns:
        RoleProof: `.rows()` the curve [{'k', 'top', 'random_mean', 'random_sd', …}], `.z()` how far the top
        heads lie above the random draws, in their standard deviations. See attention/capture/role_proof.py.
    """
    from attention import sources
    from attention.capture import role_proof

    model = named(model, SMOLLM2, "head_role_proof")
    _, lm, _ = _role_model(model)
    lm = sources.get(model).kept("effects") if lm is None else lm
    role_proof.check_model(lm)  # before the roles are measured: refused at once, not after
    roles = head_roles(model, seed=seed, length=length)
    return role_proof.prove(lm, roles, role, ks=ks, draws=draws, probes=probes)


def head_atlas(texts, model: str = MINILM, progress: Callable[[int, int], None] | None = None,
               batch: int = 8) -> Atlas:
    """What every head does on ordinary text: each role's share of its attention over a corpus, and the
    places where it moves the most. One pass: a few texts per forward pass, each trace read layer by layer
    and dropped; only sums, examples and the first texts' q and k (for the map) are kept.

    Args:
        texts: the corpus, a list of strings (blank ones are left out).
        model: "minilm", "smollm2", or a model folder (a decoder's masked self-attention is read when it has
            one, else the encoder's).
        progress: called as progress(texts done, texts in all) after each text.
        batch: texts per forward pass.

    Returns:
        Atlas (attention/analysis/atlas.py, the shares defined in its docstring): `.shares[role]`
        (layers, heads) for "previous", "first", "induction", "duplicate", "local" and "rest" (1 − the
        largest); `.even[role]` what an even spread gives; `.top(role, k)` [TopHead(HeadId, share), …];
        `.examples(layer, head, k)` [Example(text, query, key, weight, share)], the largest value-weighted
        share ‖α·v‖ outside the first token; attention.analysis.atlas_map.joint_map(atlas, layer, head) the
        queries and keys on one map.

    Raises:
        ValueError: no text that is not blank.
    """
    from attention import sources
    from attention.sources import atlas_run

    src = sources.get(named(model, MINILM, "head_atlas"))
    return atlas_run.run(src, src.kept(), texts, progress, batch)

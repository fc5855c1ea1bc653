"""The translator's head roles: its three kinds of attention measured on a probe in its own words.

The probe (role_kinds.probe_words draws from the translator's vocabularies): the English side is PREFIX
then L English words then the same L again; the decoder reads <bos> then L Spanish words twice
(teacher-forced, so the decoder sees the repeated words whatever it would have written). The prefix
keeps the repeated words off the encoder's first position; <bos> does the same in the decoder. The
Spanish words are drawn on their own: the decoder's self-attention roles are about its own input,
and cross-attention is scored only on sink and broad (role_kinds says why).
"""

from __future__ import annotations

from attention.analysis import head_roles, role_kinds, role_probes
from attention.translator.api import MODEL_NAME, teacher_forced
from attention.translator.model import Transformer

PREFIX = "the"  # one word the encoder reads first, never drawn into the copies
KINDS = ("decoder", "encoder", "cross")  # the decoder first: the one kind with a causal mask


def probe(model: Transformer, seed: int = 0, length: int = role_probes.DEFAULT_LENGTH) -> tuple[str, str]:
    """(English text, Spanish text) of the probe: seed 0 draws the same words every time."""
    en = role_kinds.probe_words(model.src_vocab.tokens, seed, length, leave_out=(PREFIX,))
    es = role_kinds.probe_words(model.tgt_vocab.tokens, seed, length)
    if 2 * length + 1 > model.cfg.max_len:
        raise ValueError(f"a probe of 2 × {length} words does not fit the translator's {model.cfg.max_len} positions")
    return f"{PREFIX} {' '.join(en)} {' '.join(en)}", f"{' '.join(es)} {' '.join(es)}"


def measure(model: Transformer, seed: int = 0, length: int = role_probes.DEFAULT_LENGTH,
            kinds: tuple[str, ...] = KINDS) -> dict[str, head_roles.HeadRoles]:
    """kind -> every head's roles on the probe of `seed` (one teacher-forced run for all kinds)."""
    text, target = probe(model, seed, length)
    tr = teacher_forced(text, target, model).trace
    about = {"model": MODEL_NAME, "text": text, "target": target, "words": length}
    out = {}
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"the translator has no '{kind}' attention: choose one of {', '.join(KINDS)}")
        weights, keys = role_probes.stacked(tr, kind)
        where = role_probes.layout(keys, length)  # cross: where the copies are in the source its keys read
        score = role_kinds.cross_roles if kind == "cross" else head_roles.roles
        out[kind] = score(weights, keys, where.start, where.length, seed, kind=kind, **about)
    return out

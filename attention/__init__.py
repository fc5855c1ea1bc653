"""See how transformer attention works: trace a text through a model and read every step.

    import attention
    tr = attention.trace("The black cat drank the milk")   # all-MiniLM-L6-v2, offline
    site = tr.sites[0]          # every attention site in model order; site.layer, site.kind
    site.weights.shape          # (heads, query_pos, key_pos)
    attention.translate("The ball is blue.").text   # "la bola es azul ." (built-in translator)
    tr.show(kind="encoder", layer=0, head=3)        # one head's S, A, Z in a notebook (offline);
                                                    # attention.show(tr, ...) is the same
    attention.save_html(tr, "trace.html")           # every head in one file that opens from disk
    attention.translate("The ball is blue.", ablate="cross.1.0,cross.1.1").ablation.drops  # heads off
    attention.head_effects("The ball is blue.", model="translator").ranked()  # every head off, one at a time
    attention.next_token("The black cat drank the milk because it was").top(10)  # SmolLM2's next token
    attention.generate("Once upon a time", steps=10).written                    # written step by step
    attention.evict("…a long prompt…", policy="streaming", budget=64, steps=6).steps[-1].kl  # a cache that forgot
    attention.head_roles(model="smollm2").top("induction", 2)  # what each head does, on a probe
    attention.head_atlas(["The cat sat.", "It rained."], model="smollm2").shares["previous"]  # on real text
    attention.why("The black cat drank the milk because it was").top(3)  # the heads and tokens behind a word
    attention.head_writes("The black cat drank the milk because it was").top(3)  # what each head writes
    attention.needle("The code is 4721.", "What is the code?", length=2048).found  # a fact fetched from far back
    attention.compare("… because it was thirsty", "… because it was sour", model="smollm2").patching().ranked()

One vocabulary: `model=` is a registry name ("minilm", "translator", "smollm2") or a model folder, the
default named in each signature; a head is HeadId(kind, layer, head); every ranking is a list of named tuples
(TopHead(head, score), TopToken(token, value, token_id)) and `.top(k)` reads its first k; `steps` counts
written words, `ig_steps` integration intervals. The functions live in attention/api/; the result types are
exported here (read lazily: naming one loads what it needs).

Importing the package is light: torch and transformers load only when a function is called, so
`attention.core`, `attention.trace` and `attention.analysis` work without them.
"""

from __future__ import annotations

import importlib
from typing import Any

from attention.api.heads_api import head_atlas, head_role_proof, head_roles
from attention.api.lm_api import evict, generate, head_writes, next_token, why
from attention.api.model_names import MINILM, SMOLLM2, TRANSLATOR
from attention.api.needle_api import needle, retrieval_heads
from attention.api.trace_api import compare, head_effects, save_html, show, trace, translate
from attention.errors import ModelLoadError
from attention.ids import HeadId, TopHead, TopToken
from attention.trace import KINDS, Kind, Site, Trace

# tr.show(...) and tr.save_html(path), the notebook's spelling. The head view sits above the contract,
# so trace.py cannot import it; the package sits above both and hands Trace these two functions. Any
# import of attention.trace runs this file first, so a Trace always has them.
Trace.show = show
Trace.save_html = save_html

# The result types, read when first named (each loads torch or the translator): attention.Writing, …
_RESULT_TYPES = {
    "Translation": "attention.translator.api",
    "HeadEffects": "attention.analysis.effects",
    "Ablation": "attention.analysis.effects",
    "NextToken": "attention.lm.written",
    "Writing": "attention.lm.writer",
    "Step": "attention.lm.written",
    "Eviction": "attention.lm.evict",
    "Why": "attention.lm.why",
    "HeadWrites": "attention.lm.head_writes",
    "NeedleRun": "attention.lm.needle",
    "RetrievalGrid": "attention.lm.needle_grid",
    "HeadRoles": "attention.analysis.head_roles",
    "RoleProof": "attention.capture.role_proof",
    "Atlas": "attention.analysis.atlas",
    "Comparison": "attention.sources.comparison",
    "Patching": "attention.analysis.patch_result",
    "HeadView": "attention.headview",
}


def __getattr__(name: str) -> Any:
    """A result type named for the first time: imported from its module (PEP 562).

    Args:
        name: the attribute asked for.

    Returns:
        type: the result type (attention.Writing, attention.Why, …).

    Raises:
        AttributeError: nothing of that name in the package.
    """
    module = _RESULT_TYPES.get(name)
    if module is None:
        raise AttributeError(f"module 'attention' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["KINDS", "MINILM", "SMOLLM2", "TRANSLATOR", "HeadId", "Kind", "ModelLoadError", "Site", "TopHead",
           "TopToken", "Trace", "compare", "evict", "generate", "head_atlas", "head_effects", "head_role_proof",
           "head_roles", "head_writes", "needle", "next_token", "retrieval_heads", "save_html", "show", "trace", "translate", "why", *_RESULT_TYPES]

"""See how transformer attention works: trace a text through a model and read every step.

    import attention
    tr = attention.trace("The black cat drank the milk")   # all-MiniLM-L6-v2, offline
    site = tr.sites[0]          # every attention site in model order; site.layer, site.kind
    site.weights.shape          # (heads, query_pos, key_pos)
    attention.translate("The ball is blue.").text   # "la bola es azul ." (built-in translator)
"""

import os

# Models are read from local folders only; never reach for a hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from attention.hf_backend import ModelLoadError, trace
from attention.trace import KINDS, Site, Trace


def translate(text: str):
    """English -> Spanish with the built-in translator; returns a Translation with .text and .trace."""
    from attention.translator import translate as _translate

    return _translate(text)


__all__ = ["KINDS", "ModelLoadError", "Site", "Trace", "trace", "translate"]

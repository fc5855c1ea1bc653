"""One forward pass of a loaded Hugging Face model: with every attention call recorded (`run`), or for the
logits at a few positions only (`kept_logits`), and when a pass keeps every head's weights (`keeps_weights`).
"""

from __future__ import annotations

import contextlib
import inspect

import torch

from attention.capture import attention_fn, malloc
from attention.capture.loaded import LoadedModel

# Every head's weights of every layer, float32, kept while they take at most this: the model's own weights
# are then compared with ours. Above it (SmolLM2, 270 heads: from 488 tokens on) a trace is lean: z alone
# is compared, and each head's n × n is computed when a page asks (trace.Site.is_long).
KEEP_WEIGHTS_BYTES = 256 << 20


def keeps_weights(lm: LoadedModel, n_query: int, n_key: int | None = None) -> bool:
    """Whether a run over this many query and key positions keeps the model's own weights (see above)."""
    config = getattr(lm.model.config, "get_text_config", lambda: lm.model.config)()
    heads = int(getattr(config, "num_attention_heads", 0) or getattr(config, "n_head", 0) or 1)
    layers = sum(len(v) for v in (lm.expected_layers or {}).values()) or max(1, lm.n_layers)
    n_key = n_query if n_key is None else n_key
    return layers * heads * n_query * n_key * 4 <= KEEP_WEIGHTS_BYTES


def _takes(model: torch.nn.Module, argument: str) -> bool:
    try:
        return argument in inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return False


def kept_logits(lm: LoadedModel, inputs: dict[str, torch.Tensor], keep: int | torch.Tensor,
                grad: bool = False) -> torch.Tensor:
    """(B, kept, vocab) the logits at the positions kept: the last `keep` (an int) or those indexed (a 1-D tensor).

    Only those are made where the model's forward takes `logits_to_keep`: every position's would be
    B × T × vocab, over a gigabyte for SmolLM2's 271 head rows, all but a few thrown away. Another model makes
    them all and the kept ones are read. `grad`: gradients flow back to the inputs (integrated gradients);
    otherwise the pass runs under inference mode."""
    with contextlib.nullcontext() if grad else torch.inference_mode():
        if _takes(lm.model, "logits_to_keep"):
            return lm.model(**inputs, logits_to_keep=keep).logits
        logits = lm.model(**inputs).logits
    return logits[:, -keep:] if isinstance(keep, int) else logits[:, keep]


def run(lm: LoadedModel, inputs: dict[str, torch.Tensor],
        lean: bool = False) -> tuple[object, list[attention_fn.CallRecord]]:
    """One forward pass with every attention call recorded (for this thread only); a language model's
    logits for the last position only, the one its callers read (every position's were a fifth of
    SmolLM2's work, and 49,152 × 8,192 floats would be 1.6 GB). `lean`: the model's fast attention, no
    weights and no hidden states kept."""
    # lean: no KV cache either (its copies of k and v would be another 0.4 GB at 8,192 tokens)
    malloc.fix_threshold()
    extra = {name: value for name, value in (("logits_to_keep", 1), ("use_cache", False))
             if (lean or name == "logits_to_keep") and _takes(lm.model, name)}
    with attention_fn.recording(lean=lean) as records, torch.inference_mode():
        outputs = lm.model(**inputs, output_hidden_states=not lean, **extra)
    return outputs, records

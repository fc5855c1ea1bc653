"""How many attention sites a model has, per kind, read from its config (never from what was captured):
what a trace is counted against, so a site that was never captured cannot pass unnoticed."""

from __future__ import annotations

from transformers import PretrainedConfig
from transformers.models.auto.modeling_auto import (
    MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
    MODEL_FOR_MASKED_LM_MAPPING_NAMES,
)

_STACK = ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
_ENCODER = ("encoder_layers", "num_layers", "num_hidden_layers")
_DECODER = ("decoder_layers", "num_decoder_layers", "num_layers", "num_hidden_layers")


def _first_int(config: PretrainedConfig, names: tuple[str, ...]) -> int | None:
    for name in names:
        n = getattr(config, name, None)
        if isinstance(n, int) and n >= 0:
            return n
    return None


def self_kind(config: PretrainedConfig) -> str:
    """"decoder" for a single stack that reads left to right (a causal language model and not a masked
    one, or a config that says is_decoder), else "encoder"."""
    model_type = getattr(config, "model_type", "")
    causal_only = model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES
    return "decoder" if causal_only or getattr(config, "is_decoder", False) else "encoder"


# layer_types that are no softmax attention (recurrent, convolution, MLP-only) and those that say nothing
# about attention (an MLP pattern); every other type attends, "hybrid" (attention beside a state-space
# mixer, Falcon-H1, Zamba2) included.
_NO_ATTENTION = ("linear_attention", "mamba", "conv", "moe", "mlp", "recurrent", "rwkv", "ssm")
_MLP_PATTERN = ("dense", "sparse")


def _attention_layers(config: PretrainedConfig, n: int) -> tuple[int, ...]:
    """Layers 0..n-1, less those a hybrid model gives no softmax attention (its config's layer_types)."""
    types = getattr(config, "layer_types", None)
    if not isinstance(types, (list, tuple)) or len(types) != n or all(str(t) in _MLP_PATTERN for t in types):
        return tuple(range(n))
    return tuple(i for i, t in enumerate(types) if str(t) not in _NO_ATTENTION and "linear" not in str(t))


def _stack_config(config: PretrainedConfig, side: str) -> PretrainedConfig:
    """An encoder–decoder's config for one side when it keeps one (T5Gemma: config.encoder), else itself."""
    for name in (side, f"{side}_config"):
        sub = getattr(config, name, None)
        if isinstance(sub, PretrainedConfig):
            return sub
    return config


def expected_layers(config: PretrainedConfig) -> dict[str, tuple[int, ...]] | None:
    """Per kind ("encoder", "decoder", "cross"), the layers that attend; None when the config does not say."""
    if getattr(config, "is_encoder_decoder", False):
        enc, dec = _stack_config(config, "encoder"), _stack_config(config, "decoder")
        n_enc, n_dec = _first_int(enc, _ENCODER), _first_int(dec, _DECODER)
        if n_enc is None or n_dec is None:
            return None
        return {"encoder": tuple(range(n_enc)), "decoder": _attention_layers(dec, n_dec),
                "cross": tuple(range(n_dec))}
    n = _first_int(config, _STACK)
    if n is None:
        return None
    return {self_kind(config): _attention_layers(config, n)}

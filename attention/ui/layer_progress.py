"""Progress over a model's layers for a long read (Explore on thousands of tokens): every attention layer's
forward call, counted while a `counting` block runs, on this thread only (other sessions' models run on
theirs). The total is the number of attention layers of the first model called inside the block."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

ATTENTION = "Attention"  # a class name ending so is an attention module (BertSelfAttention, LlamaAttention, …)


def _is_attention(module) -> bool:
    return type(module).__name__.endswith(ATTENTION)


def _is_leaf_attention(module) -> bool:
    """An attention module with no attention module inside it (BertAttention holds BertSelfAttention)."""
    return _is_attention(module) and not any(_is_attention(m) for m in module.modules() if m is not module)


@contextlib.contextmanager
def counting(report: Callable[[int, int], None]) -> Iterator[None]:
    """report(done, total) after each attention layer's forward call made on this thread inside the block;
    done counts on past total when the model reads the text again (a caller caps the share)."""
    from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

    me = threading.get_ident()
    seen: dict[int, bool] = {}
    state = {"total": 0, "done": 0}

    def first(module, args):  # the first module called is the whole model: its attention layers are the total
        if threading.get_ident() == me and not state["total"]:
            state["total"] = sum(1 for m in module.modules() if _is_leaf_attention(m)) or 1

    def after(module, args, output):
        if threading.get_ident() != me:
            return
        leaf = seen.get(id(module))
        if leaf is None:
            leaf = seen[id(module)] = _is_leaf_attention(module)
        if leaf:
            state["done"] += 1
            report(state["done"], state["total"])

    pre, post = register_module_forward_pre_hook(first), register_module_forward_hook(after)
    try:
        yield
    finally:
        pre.remove()
        post.remove()

"""Every public function that takes `model=` reads it through the registry: each built-in name and a folder
are the same model everywhere, refused alike where they cannot serve, and an unknown name is refused alike
(issue 45: trace() once read "smollm2" and "translator" as folders)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

import attention
from attention import ModelLoadError, sources
from attention.lm.needle_prompt import Needle

pytestmark = pytest.mark.model
TEXT = "The cat drank the milk"
NEEDLES = (Needle("The code is 7.", "What is the code?", "7"),)

# the cheapest call of each function; a test below checks that none is missing
CALLS: dict[str, Callable[[str], object]] = {
    "trace": lambda m: attention.trace(TEXT, model=m),
    "head_effects": lambda m: attention.head_effects(TEXT, model=m),
    "next_token": lambda m: attention.next_token(TEXT, model=m),
    "generate": lambda m: attention.generate(TEXT, steps=1, model=m),
    "why": lambda m: attention.why(TEXT, model=m, ig_steps=2, top=1),
    "translate": lambda m: attention.translate(TEXT, model=m),
    "head_writes": lambda m: attention.head_writes(TEXT, model=m),
    "needle": lambda m: attention.needle("The code is 7.", "What is the code?", length=64, steps=1, model=m),
    "retrieval_heads": lambda m: attention.retrieval_heads(lengths=(64,), depths=(0.5,), needles=NEEDLES, steps=1,
                                                           model=m, cache=False),
    "head_roles": lambda m: attention.head_roles(model=m, length=4),
    "head_role_proof": lambda m: attention.head_role_proof(model=m, role="previous", length=4, ks=(1,), draws=1,
                                                           probes=1),
    "compare": lambda m: attention.compare(TEXT, "The dog drank the milk", model=m),
    "evict": lambda m: attention.evict(TEXT, budget=4, steps=1, model=m),
    "head_atlas": lambda m: attention.head_atlas([TEXT], model=m),
}
WRITES = ("next_token", "generate", "why", "evict", "head_writes", "needle", "retrieval_heads")  # only a model with a next-token head can
# what each name cannot do, and the words it is refused with
REFUSED = {**{(name, f): "does not predict the next word" for name in ("minilm", "translator") for f in WRITES
              if (name, f) != ("translator", "head_writes")},  # the translator's decoder splits its logit too
           ("minilm", "head_role_proof"): "causal language model",
           ("translator", "head_role_proof"): "causal language model",
           **{(name, "translate"): "reads the built-in translator" for name in ("minilm", "smollm2", "folder")},
           # the tiny folder holds 64 positions: no room for a needle prompt and a written word
           **{("folder", f): "must be at least 64 tokens" for f in ("needle", "retrieval_heads")}}


def test_every_public_function_taking_model_is_called_here():
    public = {name for name in attention.__all__ if callable(f := getattr(attention, name))
              and not isinstance(f, type) and "model" in inspect.signature(f).parameters}
    assert public == set(CALLS)


@pytest.fixture
def named(request, smollm2):  # smollm2: the session's model, so no call here loads it again
    def resolve(name: str) -> str:
        return request.getfixturevalue("gpt2_folder") if name == "folder" else name
    return resolve


@pytest.mark.parametrize("function", list(CALLS))
@pytest.mark.parametrize("name", [*sources.names(), "folder"])
def test_each_name_is_the_same_model_in_every_function(named, name, function):
    model = named(name)
    refused = REFUSED.get((name, function))
    if refused is not None:
        with pytest.raises((ModelLoadError, ValueError), match=refused):
            CALLS[function](model)
        return
    out = CALLS[function](model)
    if function == "trace":
        assert out.model_name == sources.get(model).label() and out.sites


@pytest.mark.parametrize("function", list(CALLS))
def test_an_unknown_name_is_refused_alike_everywhere(function):
    with pytest.raises(ModelLoadError, match=r"no such folder, nor a built-in model \(minilm, translator, smollm2\)"):
        CALLS[function]("smolm2")

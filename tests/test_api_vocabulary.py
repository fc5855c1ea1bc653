"""The public API speaks one vocabulary (issue 51): `model=` names its default, a head is HeadId(kind, layer,
head), every ranking is a list of named tuples read with `.top(k)`, `ig_steps` is not `steps`, `max_tokens`
defaults to the model's context, the result types are exported, and each old name still works with a
warning. Pure: no model is loaded (the functions are inspected, the rankings made from hand-made numbers)."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import attention
from attention import sources
from attention.analysis.effects import HeadEffects, parse_heads
from attention.analysis.head_roles import roles as measure_roles
from attention.api.model_names import named, renamed
from attention.ids import HeadId, TopHead, TopRows, TopToken
from harness.random_sites import random_site, tokens

PUBLIC = [getattr(attention, n) for n in attention.__all__ if inspect.isfunction(getattr(attention, n))]


def test_every_model_argument_names_a_built_in_default():
    taking = [f for f in PUBLIC if "model" in inspect.signature(f).parameters]
    assert len(taking) >= 11, [f.__name__ for f in taking]
    for f in taking:
        default = inspect.signature(f).parameters["model"].default
        assert default in sources.names(), f"{f.__name__}(model={default!r})"
    assert inspect.signature(attention.translate).parameters["model"].default == attention.TRANSLATOR
    assert inspect.signature(attention.generate).parameters["model"].default == attention.SMOLLM2
    assert inspect.signature(attention.trace).parameters["model"].default == attention.MINILM


def test_the_writing_functions_read_the_models_whole_context_by_default():
    for f in (attention.next_token, attention.generate, attention.evict):
        assert inspect.signature(f).parameters["max_tokens"].default is None, f.__name__


def test_integration_steps_are_ig_steps_and_written_words_are_steps():
    assert "ig_steps" in inspect.signature(attention.why).parameters
    for f in (attention.generate, attention.evict):
        assert "steps" in inspect.signature(f).parameters and "ig_steps" not in inspect.signature(f).parameters


def test_none_still_means_the_functions_default_with_a_warning():
    with pytest.warns(DeprecationWarning, match=r"attention.trace\(model=None\) is deprecated"):
        assert named(None, "minilm", "trace") == "minilm"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert named("smollm2", "minilm", "trace") == "smollm2"  # a name given: no warning
        assert renamed("ig_steps", "steps", 8, None, "why") == 8
    with pytest.warns(DeprecationWarning, match="is now ig_steps"):
        assert renamed("ig_steps", "steps", None, 16, "why") == 16


def test_every_exported_name_resolves_and_result_types_are_classes():
    for name in attention.__all__:
        assert getattr(attention, name) is not None, name
    for name in ("Trace", "Site", "Writing", "NextToken", "Why", "HeadRoles", "Atlas", "Comparison", "Patching",
                 "HeadEffects", "Eviction", "Translation", "RoleProof"):
        assert name in attention.__all__ and inspect.isclass(getattr(attention, name)), name
    with pytest.raises(AttributeError):
        attention.NoSuchThing  # noqa: B018


def test_a_ranking_is_a_list_of_named_tuples_that_top_k_reads():
    ranked = TopRows([TopHead(HeadId("decoder", 18, 6), 0.9), TopHead(HeadId("decoder", 17, 4), 0.5)])
    assert ranked[0].head.layer == 18 and ranked(1) == [ranked[0]] and ranked() == list(ranked)
    assert ranked[0].head == ("decoder", 18, 6) and str(ranked[0].head) == "decoder.18.6"
    (kind, layer, head), score = ranked[1]  # still unpacks as the plain tuples did
    assert (kind, layer, head, score) == ("decoder", 17, 4, 0.5)
    assert TopToken("·the", 0.1, 262).token_id == 262


def test_head_effects_and_parsed_heads_are_head_ids():
    heads = parse_heads("cross.1.2, encoder.0.3")
    assert all(isinstance(h, HeadId) for h in heads) and HeadId("cross", 1, 2) in heads
    fx = HeadEffects(heads=(("encoder", 0, 0), ("encoder", 0, 1)), mode="zero", measure="cosine", tokens=("a",),
                     effect=np.array([0.1, 0.3]))
    assert isinstance(fx.heads[0], HeadId)
    assert fx.top(1) == [TopHead(HeadId("encoder", 0, 1), 0.3)] and fx.ranked()[1].score == 0.1


def test_head_roles_rank_heads_with_their_kind():
    n, length = 25, 12
    w = np.full((2, 3, n, n), 1.0 / n)  # (layers, heads, query_pos, key_pos)
    w[1, 2] = np.eye(n, k=-1)
    w[1, 2, 0, 0] = 1.0
    r = measure_roles(w, tokens(n), 1, length, seed=0, model="hand", causal=True)
    top = r.top("previous", 1)
    assert top == [TopHead(HeadId("decoder", 1, 2), pytest.approx(1.0))] and isinstance(top[0].head, HeadId)


def test_a_trace_finds_a_layers_only_kind_and_refuses_to_guess_between_two():
    dec = [random_site(4, kind="decoder", layer=i, seed=i) for i in range(2)]
    tr = attention.Trace(text="t", model_name="m", tokens=tokens(4), sites=tuple(dec))
    assert tr.site(1) is dec[1] and tr.site(1, "decoder") is dec[1]
    both = attention.Trace(text="t", model_name="m", tokens=tokens(4),
                           sites=(random_site(4, kind="encoder", layer=0), dec[0]))
    with pytest.raises(KeyError, match="name the kind"):
        both.site(0)


def test_old_names_still_work_with_a_warning():
    site = random_site(5, kind="decoder")
    tr = attention.Trace(text="t", model_name="m", tokens=tokens(5), sites=(site,))
    with pytest.warns(DeprecationWarning, match="model_name"):
        assert tr.model == "m"
    with pytest.warns(DeprecationWarning, match="pattern"):
        np.testing.assert_array_equal(site.head_weights(1), site.pattern(1))
    with pytest.warns(DeprecationWarning, match="score_rows"):
        np.testing.assert_array_equal(site.head_scores(1), site.score_rows(1))
    np.testing.assert_array_equal(site.pattern(1), site.weights[1])  # the one name for one head's A
    np.testing.assert_array_equal(site.pattern(1, [2, 4]), site.weights[1][[2, 4]])

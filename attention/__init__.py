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
    attention.head_roles(model="smollm2").top("induction")  # what each head does, on a probe
    attention.head_atlas(["The cat sat.", "It rained."], model="smollm2").shares["previous"]  # on real text
    attention.why("The black cat drank the milk because it was").top  # the heads and tokens behind a word
    attention.compare("… because it was thirsty", "… because it was sour", model="smollm2").patching().ranked()

Importing the package is light: torch and transformers load only when `trace` or `translate` is
called, so `attention.core`, `attention.trace` and `attention.analysis` work without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attention.errors import ModelLoadError
from attention.trace import KINDS, Kind, Site, Trace

if TYPE_CHECKING:
    from pathlib import Path

    from collections.abc import Callable

    from attention.sources.atlas_run import Atlas
    from attention.capture.hf_ablation import HeadEffects
    from attention.headview import HeadView
    from attention.capture.role_proof import HeadRoles, RoleProof
    from attention.lm.evict import Eviction
    from attention.lm.why import Why
    from attention.lm.writer import NextToken, Writing
    from attention.sources.comparison import Comparison
    from attention.translator.api import Translation


def trace(text: str, model: str | None = None, target: str | None = None, ablate=None, mode: str = "zero") -> Trace:
    """Every attention site of a model on `text`. See capture/hf_model.py.

    Args:
        text: the input sentence.
        model: None or "minilm" for all-MiniLM-L6-v2, "translator", "smollm2", or a Hugging Face model
            folder: the names every function taking `model=` reads (attention/sources/registry.py).
        target: the decoder's input for an encoder–decoder folder (the translator writes its own).
        ablate: heads to switch off, "kind.layer.head" separated by commas or (kind, layer, head) tuples.
        mode: an off head outputs zeros ("zero") or its mean output over reference sentences ("mean").

    Returns:
        Trace: `.sites` in model order, each with q, k, v (heads, pos, d_head) and weights (heads,
        query_pos, key_pos); with `ablate`, `.ablation` says what changed (capture/hf_ablation.py).

    Raises:
        ModelLoadError: no such folder, or one transformers cannot read.
    """
    from attention import sources

    return sources.get(model).trace(text, target=target, ablate=ablate, mode=mode)


def save_html(trace: Trace, path: str | Path, **options) -> Path:
    """Every head of `trace` in one self-contained HTML file (pickers for kind, layer and head) that
    opens offline from disk. See attention/headview/page.py."""
    from attention.headview import save_html as _save_html

    return _save_html(trace, path, **options)


def show(trace: Trace | Site, kind: Kind | None = None, layer: int | None = None, head: int = 0,
         **options) -> HeadView:
    """One head's S, A, Z and lines in a notebook (offline: no CDN): `show(tr, kind="encoder", layer=3,
    head=7)`, or `show(site, head=7)`. See attention/headview/page.py."""
    from attention.headview import show as _show

    return _show(trace, kind=kind, layer=layer, head=head, **options)


# tr.show(...) and tr.save_html(path), the notebook's spelling. The head view sits above the contract,
# so trace.py cannot import it; the package sits above both and hands Trace these two functions. Any
# import of attention.trace runs this file first, so a Trace always has them.
Trace.show = show
Trace.save_html = save_html


def translate(text: str, ablate=None, mode: str = "zero") -> Translation:
    """English -> Spanish with the built-in translator; returns a Translation with .text and .trace.
    `ablate` (as for trace()): the translation with those heads off; `.ablation` holds the translation
    with every head on and each of its words' log-probability with and without the heads."""
    if ablate is not None:
        from attention.translator import ablation

        return ablation.translate(text, ablate=ablate, mode=mode)
    from attention.translator import translate as _translate

    return _translate(text)


TRANSLATOR = "translator"  # head_effects(model=TRANSLATOR): the built-in translator (attention/sources)


def head_effects(text: str, model: str | None = None, mode: str = "zero", target: str | None = None) -> HeadEffects:
    """Every head switched off alone (the runs batched), with one effect per head: the mean drop of the
    output words' log-probability (the translator, a language model) or 1 − the cosine of the pooled
    embedding (a sentence encoder).

    Args:
        text: the input sentence.
        model: a model folder, None for all-MiniLM-L6-v2, or "translator".
        mode: "zero" (an off head outputs zeros) or "mean" (its mean output over reference sentences).
        target: the decoder's input for an encoder–decoder folder (default: the text itself).
    Returns:
        HeadEffects: `.heads` (kind, layer, head) in model order, `.effect` (n_heads,), `.ranked()`.
    """
    from attention import sources

    src = sources.get(model)
    return src.head_effects(src.kept("effects"), text, mode, target=target)


SMOLLM2 = "smollm2"  # the built-in language model (SmolLM2-135M-Instruct, expanded on first use; sources/registry.py)


def next_token(prompt: str, model: str | None = SMOLLM2, temperature: float = 1.0, top_k: int | None = None,
               top_p: float | None = None, max_tokens: int = 2_048) -> NextToken:
    """The distribution over the token after `prompt`, from a causal language model.

    Args:
        prompt: the text to continue (not empty; cut to max_tokens tokens, `.cut` on the writing says so).
        model: "smollm2" (the built-in model) or the folder of any causal LM (GPT-2, Llama, …).
        temperature: logits are divided by it before the softmax (clamped to 0.05..5).
        top_k: keep only the k likeliest tokens (None: all).
        top_p: keep the likeliest tokens until their probability reaches p (None: all).
        max_tokens: the most prompt tokens read.

    Returns:
        NextToken: `.top(10)` [(token as text, probability), …]; `.probs` (vocab,) after the settings;
        `.logits` (vocab,) the model's own; `.settings.clamped` names values that were out of range.
    """
    from attention import sources
    from attention.lm import notebook

    lm = sources.get(model or SMOLLM2).kept("writer")
    return notebook.next_token(prompt, lm, temperature, top_k, top_p, max_tokens)


def generate(prompt: str, steps: int = 10, model: str | None = SMOLLM2, temperature: float = 1.0,
             top_k: int | None = None, top_p: float | None = None, seed: int | None = None,
             max_tokens: int = 2_048) -> Writing:
    """Write `steps` tokens after `prompt`, one at a time with the KV cache, every attention row recorded.

    Args:
        prompt: the text to continue (not empty).
        steps: how many tokens to write (fewer when the end-of-text token comes: `.ended`).
        model: "smollm2" or the folder of any causal LM.
        temperature, top_k, top_p: as for next_token().
        seed: None writes greedily (the likeliest token each time, as generate(do_sample=False)); a
            number draws each token from the distribution with numpy's default_rng((seed, step)).
        max_tokens: prompt and written tokens together (the prompt is cut to fit; `.cut` says how many).

    Returns:
        Writing: `.written` and `.text`; `.steps`, each with `.token`, `.label`, `.probability`,
        `.chosen_from` (a NextToken) and `.rows[layer]` (q (heads, 1, d_head), the new k and v
        (kv_heads, 1, d_head), weights (heads, 1, n), z (heads, 1, d_head)); `.next` the distribution
        after the last token; `.site(layer, step)` and `.trace(step)` the whole text at any step
        (heads, n, n), assembled from the kept rows.
    """
    from attention import sources
    from attention.lm import notebook

    lm = sources.get(model or SMOLLM2).kept("writer")
    return notebook.generate(prompt, lm, steps, temperature, top_k, top_p, seed, max_tokens)


def evict(prompt: str, policy: str = "streaming", budget: int = 64, sinks: int = 4, steps: int = 10,
          model: str | None = SMOLLM2, temperature: float = 1.0, top_k: int | None = None,
          top_p: float | None = None, seed: int | None = None, max_tokens: int = 2_048) -> Eviction:
    """Write `steps` tokens after `prompt` with a KV cache that keeps only `budget` keys per query, beside
    the full cache at the same text (attention/lm/evict.py; the policies in attention/lm/evict_policies.py).

    The prompt is read in full; from the first written word on, each new query sees only the kept keys
    (its own among them); positions are not renumbered; a key/value head's kept set serves its query heads.

    Args:
        prompt: the text to continue (not empty).
        policy: "streaming" (sinks + recent), "window" (recent only), "h2o" (recent + heavy hitters),
            "tova" (the newest query's top keys, per layer) or "snapkv" (the prompt compressed once).
        budget: keys a written word's query sees (at least 2); at least the text's length: nothing evicted.
        sinks: streaming's first tokens always kept.
        steps: tokens to write (fewer when the end-of-text token comes: `.ended`).
        model: "smollm2" or the folder of any causal LM read through the registry.
        temperature, top_k, top_p, seed: how each word is chosen from the evicted distribution, as generate().
        max_tokens: prompt and written tokens together (the prompt is cut to fit).

    Returns:
        Eviction: `.steps`, each with `.token_id`, `.position` (its query), `.probs` and `.full` (vocab,)
        the distributions with the evicted and the full cache (temperature 1), `.kl` KL(full ‖ evicted) in
        nats, `.same_top`, `.kept[layer]` kept positions per key/value head, `.lost` (layers, heads) the
        full cache's weight on the keys evicted; `.written`. The words come from the evicted cache alone; the
        full cache reads them when a step's `.full`, `.kl`, `.same_top` or `.lost` is first asked for (or
        `.read_full()`), every word since in one pass.
    """
    from attention import sources
    from attention.lm import notebook

    lm = sources.get(model or SMOLLM2).kept("writer")
    return notebook.evict(prompt, lm, policy, budget, sinks, steps, temperature, top_k, top_p, seed, max_tokens)


def why(prompt: str, token: str | int | None = None, model: str | None = SMOLLM2, steps: int | None = None,
        top: int = 5) -> Why:
    """Why a causal language model gives `token` after `prompt`: every head switched off alone (in
    batches) scored by the token's log-probability, and gradient × input and integrated gradients of
    that log-probability over the prompt's token embeddings (baseline: the first token kept, the
    vocabulary's mean embedding elsewhere).

    Args:
        prompt: the text before the token (not empty).
        token: the next token: None for the model's likeliest, a token id, or a string that the
            tokenizer reads as exactly one token (" tired" with its leading space).
        model: "smollm2" or the folder of any causal LM.
        steps: the intervals of the integrated gradients' midpoint rule (one batch); None: 64, within 2 % of f(x) − f(x′) on SmolLM2's default prompt.
        top: how many heads to keep with their attention rows.

    Returns:
        Why: `.drops` (heads,) nats lost with each head off, `.heads` their ids, `.top` [(head, drop), …];
        `.rows[head]` / `.value_rows[head]` the top heads' last attention row and its value-weighted
        share over the prompt tokens; `.gradient_x_input` and `.integrated_gradients` (T,);
        `.f_input`, `.f_baseline`, `.completeness_gap` |Σ IG − (f(x) − f(x′))|; `.reference` the
        attribution compared with (IG, or G×I when IG's gap exceeds a tenth of f(x) − f(x′)); `.agreements`
        each top head's Spearman ρ (with n) against it, None where the numbers do not allow one;
        `.seconds_heads` the time every head off took.
    """
    from attention import sources
    from attention.lm import why as why_lm

    lm = sources.get(model or SMOLLM2).kept("writer")
    ids = lm.tokenizer(prompt, add_special_tokens=True)["input_ids"]
    if isinstance(token, str):
        found = lm.tokenizer(token, add_special_tokens=False)["input_ids"]
        if len(found) != 1:
            raise ValueError(f"{token!r} is {len(found)} tokens, not one")
        token = found[0]
    return why_lm.explain(lm, list(ids), token, steps or why_lm.IG_STEPS, top)


def _role_model(model: str | None):
    """(trace_of(text) -> Trace, the LM-headed model or None, a name) for head_roles and head_role_proof."""
    from attention import sources

    src = sources.get(model)
    if src.predicts == "next_token":  # the proof scores the next tokens: it needs the model's head
        lm = src.kept("writer")
        return (lambda text: src.run(lm, text).trace), lm, lm.name
    return (lambda text: trace(text, model=model)), None, ""


def head_roles(model: str | None = None, seed: int = 0, length: int = 12, kind: str | None = None) -> HeadRoles:
    """What each head does: previous-token, duplicate-token, induction, sink, local and broad scores of
    every layer × head, on `length` random words (numpy seed `seed`) written twice.

    Args:
        model: None for all-MiniLM-L6-v2, "smollm2" for the built-in language model, "translator" for the
            built-in translator (its probe drawn from its own vocabularies), or a model folder.
        seed, length: the probe (attention/analysis/role_probes.py).
        kind: the translator's "decoder" (None: the default, masked), "encoder" or "cross"; None elsewhere.

    Returns:
        HeadRoles: `.scores[role]` (layers, heads); `.top(role, k)`; `.sink_rate`; `.tokens`, `.start`,
        `.length` the probe as read; `.notes` the roles that do not apply (no causal mask; cross-attention
        has sink and broad only) and why; `.to_csv()`. Formulas and sources: attention/analysis/head_roles.py
        and role_kinds.py.
    """
    from attention import sources
    from attention.capture import role_proof

    src = sources.get(model)
    if src.role_kinds or kind is not None:  # measured per kind of attention, on the source's own probe
        return src.head_roles(src.kept(), seed, length, kind)
    trace_of, _, name = _role_model(model)
    return role_proof.measure(trace_of, seed=seed, length=length, model=name)


def head_role_proof(model: str | None = SMOLLM2, role: str = "induction", seed: int = 0, length: int = 12,
                    ks=(1, 2, 3, 4, 5), draws: int = 8, probes: int = 3) -> RoleProof:
    """Does the role matter? The causal language model's loss on the repeated half of `probes` fresh
    probes with the role's top-k heads switched off, against k random heads off (`draws` per k).
    `.rows()` the curve; `.z()` how far the top heads lie above the random draws, in their standard
    deviations. See attention/capture/role_proof.py."""
    from attention import sources
    from attention.capture import role_proof

    _, lm, _ = _role_model(model)
    lm = sources.get(model).kept("effects") if lm is None else lm
    role_proof.check_model(lm)  # before the roles are measured: refused at once, not after
    roles = head_roles(model, seed=seed, length=length)
    return role_proof.prove(lm, roles, role, ks=ks, draws=draws, probes=probes)


def head_atlas(texts, model: str | None = None, progress: Callable[[int, int], None] | None = None,
               batch: int = 8) -> Atlas:
    """What every head does on ordinary text: each role's share of its attention over a corpus, and the
    places where it moves the most. One pass: a few texts per forward pass, each trace read layer by layer
    and dropped; only sums, examples and the first texts' q and k (for the map) are kept.

    Args:
        texts: the corpus, a list of strings (blank ones are left out).
        model: as for trace(): None for all-MiniLM-L6-v2, "smollm2", or a model folder (a decoder's masked
            self-attention is read when it has one, else the encoder's).
        progress: called as progress(texts done, texts in all) after each text.
        batch: texts per forward pass.

    Returns:
        Atlas (attention/analysis/atlas.py, the shares defined in its docstring): `.shares[role]`
        (layers, heads) for "previous", "first", "induction", "duplicate", "local" and "rest" (1 − the
        largest); `.even[role]` what an even spread gives; `.examples(layer, head, k)` [Example(text,
        query, key, weight, share)], the largest value-weighted share ‖α·v‖ outside the first token;
        attention.analysis.atlas_map.joint_map(atlas, layer, head) the queries and keys on one map.

    Raises:
        ValueError: no text that is not blank.
    """
    from attention import sources
    from attention.sources import atlas_run

    src = sources.get(model)
    return atlas_run.run(src, src.kept(), texts, progress, batch)


def compare(text_a: str, text_b: str, model: str | None = None) -> Comparison:
    """Change one word: A and B through the same model, what changed in every head, in the output, and
    (`.patching()`) which heads carry the change. See attention/sources/comparison.py.

    Args:
        text_a, text_b: the two inputs (not empty). Their tokens are aligned by an edit alignment;
            lengths more than 2× apart, or less than half of the shorter one's tokens shared, are refused.
        model: None for all-MiniLM-L6-v2, "translator", "smollm2", or a model folder.

    Returns:
        Comparison: `.alignment` (`.pairs` [(i in A, j in B)], `.changed` spans); `.sites`, per site
        `.max_abs` and `.js` (heads,): the largest |A_B − A_A| and the mean Jensen–Shannon distance of
        the aligned rows; `.grid("js")` (sites, heads); `.ranked("js")`; `.identical` (every change then
        exactly 0); `.output` the output's change (next-token tops of both runs and `.js` the distance of
        their whole distributions, both translations, or the embeddings' cosine); `.change_unseen`: a
        causal model whose change comes after every shared token, so no head can show it; `.patching(progress)` (causal language models): every head's z in run
        A replaced by B's at aligned positions, one at a time, batched; `.ranked()` [(head, restored
        share)], share = (LD_patched − LD_A) / (LD_B − LD_A) with LD the logit difference of the two
        runs' top next tokens; `.note` says when there is no difference to restore.

    Raises:
        ValueError: an empty input, or two inputs the alignment refuses (the reason is in the message).
    """
    from attention.sources import comparison as _compare

    return _compare.compare(text_a, text_b, model)


__all__ = ["KINDS", "SMOLLM2", "TRANSLATOR", "ModelLoadError", "Site", "Trace", "compare", "evict", "generate",
           "head_atlas",
           "head_effects", "head_role_proof", "head_roles", "next_token", "save_html", "show", "trace", "translate",
           "why"]


def needle(needle: str, question: str, haystack: str | None = None, length: int = 2_048, depth: float = 0.5,
           model: str | None = SMOLLM2, steps: int = 24, answer: str | None = None):
    """Find the needle: a fact hidden in a long prompt, asked back at the end, answered greedily; every head's
    top-1 key for each written token (Wu et al. 2024's retrieval heads). See attention/lm/needle.py.

    Args:
        needle: the fact, one sentence; question: the question asking for it.
        haystack: the filler text (None: the built-in one, text SmolLM2 wrote itself, repeated as needed).
        length: the prompt's tokens (chat template and question included; capped so `steps` still fit).
        depth: where the needle goes in the filler, 0 (start) … 1 (end), at a sentence boundary.
        model: "smollm2" or the folder of a causal LM. steps: tokens written at most.
        answer: the words a right answer holds (None: more than half of the needle's words, Wu et al.'s rule).

    Returns:
        NeedleRun: `.answer`, `.found`, `.ids`, `.needle_span` (start, end); `.steps`, each with `.token_id`,
        `.top_key` (layers, heads) ints (every head's top-1 key for the query predicting the token) and
        `.needle_weight` (layers, heads); `.retrieval_scores` (layers, heads): per head, the written tokens whose
        top-1 key was that very token inside the needle, divided by the needle's length.
    """
    from attention import sources
    from attention.lm import needle as needle_lm
    from attention.lm import needle_prompt

    lm = sources.get(model or SMOLLM2).kept("writer")
    steps = max(1, int(steps))
    prompt = needle_prompt.build(lm.tokenizer, needle, question, haystack, min(int(length), lm.max_tokens - steps - 1),
                                 depth)
    return needle_lm.run(lm, prompt, needle, question, answer, steps)


def retrieval_heads(lengths=(512, 1_024, 2_048, 4_096), depths=(0.0, 0.25, 0.5, 0.75, 1.0), needles=None,
                    model: str | None = SMOLLM2, steps: int = 24, haystack: str | None = None,
                    progress: Callable[[int, int], None] | None = None, cache: bool = True):
    """Retrieval heads over a grid: every (length, depth, needle) asked back once; Wu et al.'s score averaged
    over the runs answered right. See attention/lm/needle_grid.py.

    Args:
        lengths, depths: the grid. needles: attention.lm.needle_prompt.Needle(needle, question, answer) items
            (None: the three built-in ones). model, steps, haystack: as for needle().
        progress: called as progress(runs done, runs in all) after each run.
        cache: keep the grid on disk per (model, grid) in the model cache folder, and read it back.

    Returns:
        RetrievalGrid: `.found` (lengths, depths, needles) bool; `.accuracy` (lengths, depths); `.mean_scores`
        (layers, heads); `.retrieval_heads()` [TopHead] above 0.1; `.top(k)`; `.copied_tokens` the n behind it.
    """
    import os

    from attention import sources
    from attention.lm import needle_grid, needle_prompt, smollm2

    lm = sources.get(model or SMOLLM2).kept("writer")
    folder = os.path.join(smollm2.cache_dir(), "needle") if cache else None
    return needle_grid.measure(lm, lengths, depths, tuple(needles or needle_prompt.NEEDLES), steps, haystack,
                               progress, folder)

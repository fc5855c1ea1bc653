"""The language model in a notebook: next_token, generate, evict, why and head_writes. `model=` is "smollm2" (the built-in
SmolLM2-135M-Instruct) or the folder of any causal LM; `steps` counts written words, `ig_steps` the integrated
gradients' intervals; `max_tokens=None` is the model's own context (SmolLM2: 8,192)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from attention.api.model_names import SMOLLM2, named, renamed

if TYPE_CHECKING:
    from attention.lm.evict import Eviction
    from attention.lm.head_writes import HeadWrites
    from attention.lm.why import Why
    from attention.lm.writer import NextToken, Writing


def _writer(model: str | None, function: str):
    from attention import sources

    return sources.get(named(model, SMOLLM2, function)).kept("writer")


def _prompt_and_token(lm, prompt: str, token: str | int | None) -> tuple[list[int], int | None]:
    """The prompt's ids and the token asked about: a string must be exactly one token (ValueError else).

    Args:
        lm: the loaded causal LM.
        prompt: the text before the token.
        token: None, a token id, or a string the tokenizer reads as one token.

    Returns:
        tuple: (the prompt's ids, the token id or None).

    Raises:
        ValueError: a string that is not one token.
    """
    ids = list(lm.tokenizer(prompt, add_special_tokens=True)["input_ids"])
    if isinstance(token, str):
        found = lm.tokenizer(token, add_special_tokens=False)["input_ids"]
        if len(found) != 1:
            raise ValueError(f"{token!r} is {len(found)} tokens, not one")
        token = found[0]
    return ids, token


def next_token(prompt: str, model: str = SMOLLM2, temperature: float = 1.0, top_k: int | None = None,
               top_p: float | None = None, max_tokens: int | None = None) -> NextToken:
    """The distribution over the token after `prompt`, from a causal language model.

    Args:
        prompt: the text to continue (not empty; cut to max_tokens tokens, `.cut` on the writing says so).
        model: "smollm2" (the built-in model) or the folder of any causal LM (GPT-2, Llama, …).
        temperature: logits are divided by it before the softmax (clamped to 0.05..5).
        top_k: keep only the k likeliest tokens (None: all).
        top_p: keep the likeliest tokens until their probability reaches p (None: all).
        max_tokens: the most prompt tokens read; None: the model's whole context.

    Returns:
        NextToken: `.top(10)` [TopToken(token as text, probability, token id), …]; `.probs` (vocab,) after
        the settings; `.logits` (vocab,) the model's own; `.settings.clamped` names values out of range.
    """
    from attention.lm import notebook

    return notebook.next_token(prompt, _writer(model, "next_token"), temperature, top_k, top_p, max_tokens)


def generate(prompt: str, steps: int = 10, model: str = SMOLLM2, temperature: float = 1.0,
             top_k: int | None = None, top_p: float | None = None, seed: int | None = None,
             max_tokens: int | None = None) -> Writing:
    """Write `steps` tokens after `prompt`, one at a time with the KV cache, every attention row recorded.

    Args:
        prompt: the text to continue (not empty).
        steps: how many tokens to write (fewer when the end-of-text token comes: `.ended`).
        model: "smollm2" or the folder of any causal LM.
        temperature: as for next_token().
        top_k: as for next_token().
        top_p: as for next_token().
        seed: None writes greedily (the likeliest token each time, as generate(do_sample=False)); a
            number draws each token from the distribution with numpy's default_rng((seed, step)).
        max_tokens: prompt and written tokens together (the prompt is cut to fit; `.cut` says how many);
            None: the model's whole context.

    Returns:
        Writing: `.written` and `.text`; `.steps`, each with `.token`, `.label`, `.probability`,
        `.chosen_from` (a NextToken) and `.rows[layer]` (q (heads, 1, d_head), the new k and v
        (kv_heads, 1, d_head), weights (heads, 1, n), z (heads, 1, d_head)); `.next` the distribution
        after the last token; `.site(layer, step)` and `.trace(step)` the whole text at any step
        (heads, n, n), assembled from the kept rows.
    """
    from attention.lm import notebook

    return notebook.generate(prompt, _writer(model, "generate"), steps, temperature, top_k, top_p, seed,
                             max_tokens)


def evict(prompt: str, policy: str = "streaming", budget: int = 64, sinks: int = 4, steps: int = 10,
          model: str = SMOLLM2, temperature: float = 1.0, top_k: int | None = None,
          top_p: float | None = None, seed: int | None = None, max_tokens: int | None = None) -> Eviction:
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
        temperature: how each word is chosen from the evicted distribution, as generate().
        top_k: as generate().
        top_p: as generate().
        seed: as generate().
        max_tokens: prompt and written tokens together (the prompt is cut to fit); None: the whole context.

    Returns:
        Eviction: `.steps`, each with `.token_id`, `.position` (its query), `.probs` and `.full` (vocab,)
        the distributions with the evicted and the full cache (temperature 1), `.kl` KL(full ‖ evicted) in
        nats, `.same_top`, `.kept[layer]` kept positions per key/value head, `.lost` (layers, heads) the
        full cache's weight on the keys evicted; `.written`. The words come from the evicted cache alone; the
        full cache reads them when a step's `.full`, `.kl`, `.same_top` or `.lost` is first asked for (or
        `.read_full()`), every word since in one pass.
    """
    from attention.lm import notebook

    return notebook.evict(prompt, _writer(model, "evict"), policy, budget, sinks, steps, temperature, top_k, top_p,
                          seed, max_tokens)


def why(prompt: str, token: str | int | None = None, model: str = SMOLLM2, ig_steps: int | None = None,
        top: int = 5, steps: int | None = None) -> Why:
    """Why a causal language model gives `token` after `prompt`: every head switched off alone (in
    batches) scored by the token's log-probability, and gradient × input and integrated gradients of
    that log-probability over the prompt's token embeddings (baseline: the first token kept, the
    vocabulary's mean embedding elsewhere).

    Args:
        prompt: the text before the token (not empty).
        token: the next token: None for the model's likeliest, a token id, or a string that the
            tokenizer reads as exactly one token (" tired" with its leading space).
        model: "smollm2" or the folder of any causal LM.
        ig_steps: the intervals of the integrated gradients' midpoint rule (one batch); None: 64, within 2 %
            of f(x) − f(x′) on SmolLM2's default prompt.
        top: how many heads to keep with their attention rows.
        steps: the old name of ig_steps (deprecated: `steps` counts written words elsewhere).

    Returns:
        Why: `.drops` (heads,) nats lost with each head off, `.heads` their HeadIds, `.top` the heads with
        the largest drops [TopHead(head, drop), …] (`.top(3)` the first three); `.rows[head]` /
        `.value_rows[head]` the top heads' last attention row and its value-weighted share over the prompt
        tokens; `.gradient_x_input` and `.integrated_gradients` (T,); `.f_input`, `.f_baseline`,
        `.completeness_gap` |Σ IG − (f(x) − f(x′))|; `.reference` the attribution compared with (IG, or G×I
        when IG's gap exceeds a tenth of f(x) − f(x′)); `.agreements` each top head's Spearman ρ (with n)
        against it, None where the numbers do not allow one; `.seconds_heads` the time every head off took.

    Raises:
        ValueError: `token` is a string the tokenizer does not read as one token.
    """
    from attention.lm import why as why_lm

    ig_steps = renamed("ig_steps", "steps", ig_steps, steps, "why")
    lm = _writer(model, "why")
    ids, token = _prompt_and_token(lm, prompt, token)
    return why_lm.explain(lm, list(ids), token, ig_steps or why_lm.IG_STEPS, top)


def head_writes(prompt: str, model: str = SMOLLM2, token: str | int | None = None,
                position: int = -1, target: str | None = None) -> HeadWrites:
    """What every head writes directly into the logit of the next token (direct logit attribution): the
    final residual r at `position` is the embedding + every head's z · its columns of W_O + the MLPs'
    outputs (+ the output projections' biases), and after the final norm's one scale s = √(mean(r²) + ε)
    (LayerNorm: centred) each part x adds (x / s) · (γ ⊙ W_U[:, token]); the parts sum to the model's own
    logit. See attention/lm/head_writes.py.

    The translator (model="translator") is read the same way at its decoder: `prompt` is the English
    sentence, `target` the Spanish words written so far (None: its own greedy translation), `position` a
    decoder position (0 reads <bos> and writes the first word; the last, -1, writes the word after `target`:
    <eos> after a whole translation), `token` a Spanish word. Its rows of heads are a masked self-attention
    ("decoder") and a "cross" row per layer, in model order (`.kinds`); the embedding is token + position.

    Args:
        prompt: the text (not empty); the translator: the English sentence.
        model: "smollm2", "translator", or the folder of a causal LM whose attention output projection is a
            linear layer over the heads side by side (GPT-2's Conv1D too); any other is refused with the reason.
        token: the token after `position`: None for the model's likeliest (the translator: the word it writes),
            a token id, or a string the tokenizer reads as exactly one token (" milk" with its leading space;
            the translator: a Spanish word, "leche").
        position: the prompt token (counted from 0, negative from the end) whose next token is explained; the
            translator: the decoder position.
        target: the translator only: the Spanish words fed to the decoder after <bos>.

    Returns:
        HeadWrites: `.heads` (rows, heads) one row per attention site (`.layers`, `.kinds`; a causal LM: one
        "decoder" row per layer), `.mlps` (layers,), `.out_biases` (rows,), `.embedding`, `.bias` (0.0 where
        the model has none) in logits, adding up to `.logit` (the model's own) within `.check`;
        `.promotes(layer, head, k)` / `.suppresses(...)` [TopToken] and `.rank(layer, head)` (kind= where a
        layer has two kinds); `.grid(kind)` (layers, heads); `.difference(a, b)` the same for
        logit(a) − logit(b); `.top(k)` [TopHead].

    Raises:
        attention.lm.head_writes.Refused: the model's logit does not split into heads (the reason says why).
        ValueError: an empty prompt, a position outside it, a token that is not one token, or a target given
            to a model that is not the translator.
    """
    from attention import sources
    from attention.lm import head_writes as _writes

    source = sources.get(named(model, SMOLLM2, "head_writes"))
    if source.predicts == "translation":
        return source.head_writes(source.kept(), prompt, token, position, target)
    if target is not None:
        raise ValueError("target= is the translator's Spanish; a causal LM explains the token after its prompt")
    lm = _writer(model, "head_writes")
    ids, token = _prompt_and_token(lm, prompt, token)
    return _writes.writes(lm, list(ids), token, position)

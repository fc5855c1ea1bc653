"""Every other text family transformers builds tiny, against eager: faithful / A only / refused / wrong.

Held-out families: every text model type transformers maps to a causal, masked or seq2seq LM that
harness/tiny_families.py does not already build, made tiny from its default config (hidden 32, 2 layers),
traced through the public API and judged against transformers' eager attention on the same weights and ids.

Each family gets one verdict:
  faithful   every site drawn matches eager (1e-5), is a distribution, has the kind the model computes
  A only     as faithful, but some sites hold the weights alone, with the reason
  refused    nothing drawn for what cannot be checked: the model and the reason named
  wrong      a drawn site differs from eager, is not a distribution, or has the wrong kind (silent), or
             a warning about sites that are in fact all right (false alarm)
  crash      any other exception out of the public API
Families whose tiny config does not build, or whose eager run fails, are left out (listed at the end).

    python -m bench held_out [--only NAME ...] [--jobs N]
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import tempfile
import traceback

import numpy as np

os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # one table, not a progress bar per load
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

# long enough for block-sparse attention in a tiny config (BigBird: more than 14 tokens)
TEXT = "the black cat drank the milk while the small dog slept by the warm fire"
TARGET = "el gato negro bebio la leche"
TOL = 1e-5

ALREADY = {"gpt2", "llama", "mistral", "bart", "marian", "t5", "bert", "roberta", "xlm-roberta", "albert",
           "distilbert", "deberta-v2", "bloom", "mpt", "falcon", "gpt_neo", "gpt_oss", "deepseek_v3", "gemma2",
           "qwen2", "gpt_bigcode", "opt", "led", "squeezebert", "mt5"}
MAX_PARAMS = 3_000_000  # a family whose tiny config is still bigger than this is left out


def candidates() -> list[str]:
    import transformers.models.auto.modeling_auto as auto

    lm = set(auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES) | set(auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES) | set(
        auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES)
    return sorted((lm & set(auto.MODEL_MAPPING_NAMES)) - ALREADY)


def build(model_type: str, folder: str) -> None:
    import torch
    from transformers import AutoModel

    from harness import tiny_families

    with torch.device("meta"):
        n = sum(p.numel() for p in AutoModel.from_config(tiny_families.small_config(model_type)).parameters())
    if n > MAX_PARAMS:
        raise ValueError(f"{n:,} parameters")
    tiny_families.build_small(model_type, folder)


def _distribution(w: np.ndarray, sinks: bool) -> bool:
    """Non-negative rows that sum to 1 (at most 1 with sinks), or to 0 for a query that sees no key."""
    s = w.astype(np.float64).sum(-1)
    return bool((w >= -TOL).all() and (((np.abs(s - 1) <= 1e-4) | (s <= TOL)) | (sinks & (s <= 1 + 1e-4))).all())


def _reference(folder: str, lm, enc, dec):
    """transformers' eager attention on the same ids: per kind, one (heads, Tq, Tk) array per layer."""
    from harness import tiny_families

    out, _ = tiny_families.eager_run(folder, enc, dec)
    named = {"encoder": "encoder_attentions", "decoder": "decoder_attentions", "cross": "cross_attentions"}
    if dec is None:
        named = {"self": "attentions"}
    ref = {}
    for kind, attr in named.items():
        stack = getattr(out, attr, None)
        ref[kind] = [a[0].numpy() for a in stack or () if a is not None and hasattr(a, "numpy")]
    return ref


def _reference_layers(config, n: int) -> tuple[int, ...]:
    """The layer of each of eager's n entries: a hybrid returns one per attention layer only, read here
    from transformers' own layer_types (not from the code under test)."""
    types = list(getattr(config, "layer_types", None) or ())
    attending = tuple(i for i, t in enumerate(types) if t not in ("linear_attention", "mamba", "conv", "moe", "mlp"))
    return attending if n < len(types) and len(attending) == n else tuple(range(n))


def _tokens(enc, dec, kind: str) -> tuple[list[str], list[str]]:
    """The query and key tokens of a site of this kind (one text)."""
    q = dec if dec is not None and kind in ("decoder", "cross") else enc
    k = enc if kind in ("encoder", "cross") or dec is None else dec
    return q.tokens[0], k.tokens[0]


def _true_kind(w: np.ndarray) -> str:
    """What the weights say: any weight above the diagonal means the model let queries read later keys."""
    return "decoder" if w.ndim == 3 and w.shape[1] == w.shape[2] and np.triu(w, 1).max() <= 1e-7 else "encoder"


def judge(model_type: str) -> tuple[str, str]:
    """(verdict, detail) for one family, built in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        try:
            build(model_type, folder)
        except Exception as exc:
            return "skip", f"build: {type(exc).__name__}: {str(exc)[:80]}"
        from attention import ModelLoadError
        from attention.capture import hf_forward, hf_model

        from harness import tiny_families as fam

        try:
            lm0 = hf_model.read_model(folder)
        except ModelLoadError as exc:
            return "refused", str(exc)[:160].replace("\n", " ")
        except Exception as exc:  # our reading of the folder failed: a crash, not a family left out
            return "crash", f"read_model: {type(exc).__name__}: {str(exc)[:120]}"
        try:
            enc = hf_model.encode(lm0, [TEXT])
            dec = hf_model.decoder_inputs(lm0, [TARGET]) if lm0.is_encoder_decoder else None
        except Exception as exc:
            return "crash", f"inputs: {type(exc).__name__}: {str(exc)[:120]}"
        try:
            ref = _reference(folder, lm0, enc, dec)
        except ModelLoadError as exc:
            return "refused", str(exc)[:160].replace("\n", " ")
        except Exception as exc:
            return "skip", f"eager: {type(exc).__name__}: {str(exc)[:80]}"
        try:
            tr = hf_model.trace_batch(lm0, [TEXT], [TARGET] if lm0.is_encoder_decoder else None)[0]
        except ModelLoadError as exc:
            return "refused", str(exc)[:160].replace("\n", " ")
        except Exception as exc:
            return "crash", f"{type(exc).__name__}: {str(exc)[:120]}"
        wrong = []
        matched = 0
        if lm0.capture == "registry":  # loaded through our attention function: the model must compute the same
            ours, _ = hf_forward.run(lm0, dict(enc.inputs) | ({} if dec is None else dec.inputs))
            theirs = fam.eager_run(folder, enc, dec)[0]
            gap = float((ours.last_hidden_state - theirs.last_hidden_state).abs().max())
            if gap > 1e-4:
                wrong.append(f"the model's output changed by {gap:.2f} under our attention function")
        for site in tr.sites:
            stack = ref.get("self" if dec is None else site.kind, [])
            layers = _reference_layers(lm0.model.config, len(stack))
            if site.layer not in layers:
                wrong.append(f"{site.kind} {site.layer}: no such layer in eager")
                continue
            w = stack[layers.index(site.layer)]
            if w.ndim == 3 and w.shape[-1] != site.weights.shape[-1] and w.shape[1] == site.weights.shape[1]:
                w = fam.band_to_full(w, site.weights.shape[-1])
            if w.shape != site.weights.shape:
                wrong.append(f"{site.kind} {site.layer}: shape {site.weights.shape} vs eager {w.shape}")
                continue
            mine = site.weights
            if site.sinks is not None and _distribution(w, False):
                # a sink's share (GPT-OSS) can be left in the rows or put on the output (Granite-SWA's eager
                # returns the plain softmax and scales Z): the same attention, compared row-normalised
                mine = mine / np.maximum(mine.sum(-1, keepdims=True), 1e-30)
            diff = float(np.abs(mine - w).max())
            if diff > TOL:
                wrong.append(f"{site.kind} {site.layer}: {diff:.2f} off eager")
            elif not _distribution(site.weights, site.sinks is not None):
                wrong.append(f"{site.kind} {site.layer}: rows not a distribution")
            elif dec is None and site.kind != _true_kind(w):
                wrong.append(f"{site.kind} {site.layer}: labelled {site.kind}, computes {_true_kind(w)}")
            else:
                matched += 1
        n_ref = sum(len(v) for v in ref.values())
        has_attention = any("Attention" in type(m).__name__ for m in lm0.model.modules())
        problems = tr.site_problems
        said = ", ".join(f"{p.reason} {p.kind} {p.layers}" for p in problems)
        if wrong:  # drawn, and not what the model computes: a warning about something else does not cover it
            return "wrong", ("silent: " if not problems else f"drawn wrong ({said}): ") + "; ".join(wrong[:2])
        for p in problems:  # a refusal of weights that eager shows to be attention over the tokens is a false alarm
            if p.reason.startswith("refused_"):
                stack = ref.get("self" if dec is None else p.kind, [])
                q_tokens, k_tokens = _tokens(enc, dec, p.kind)
                for layer in p.layers:
                    w = stack[layer] if layer < len(stack) else None
                    if w is not None and w.shape == (w.shape[0], len(q_tokens), len(k_tokens)) and _distribution(
                            w, False):
                        return "wrong", f"false alarm: {p.reason} {p.kind} {layer}, eager's weights are attention"
        refusals = ", ".join(f"{p.reason} {p.kind} {p.layers}" for p in problems if p.reason.startswith("refused_"))
        problems = tuple(p for p in problems if not p.reason.startswith("refused_"))
        said = ", ".join(f"{p.reason} {p.kind} {p.layers}" for p in problems)
        if refusals and not problems:
            return "refused", "not drawn, said why: " + refusals
        if problems:
            if {p.reason for p in problems} == {"no_attention"}:
                return ("refused", "says it has no attention layers") if not has_attention else (
                    "wrong", "false alarm: no attention layers, but it has some")
            if matched == n_ref and n_ref > 0:
                return "wrong", "false alarm: " + said
            if not has_attention:
                return "wrong", "false alarm (no attention layers): " + said
            return "refused", "warned: " + said
        if not tr.sites:
            return ("refused", "no sites, said so") if not has_attention else ("wrong", "no sites, no warning")
        if tr.capture_path == "recomputed" and not all(s.has_qkv for s in tr.sites):
            return "wrong", "capture path says recomputed"
        try:  # a text past the model's position limit is cut to it, never read past the table
            long_text = " ".join(["cat"] * (lm0.max_tokens + 10))
            hf_model.trace_batch(lm0, [long_text], [long_text] if dec is not None else None)
        except ModelLoadError as exc:
            return "refused", "at the position limit: " + str(exc)[:120]
        except Exception as exc:
            return "crash", f"at the position limit ({lm0.max_tokens}): {type(exc).__name__}: {str(exc)[:100]}"
        only = sorted({s.missing_qkv for s in tr.sites if not s.has_qkv})
        if only:
            return "A only", ", ".join(only)
        return "faithful", f"{len(tr.sites)} sites, path {tr.capture_path}"


def _child(model_type: str, conn) -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        import torch

        torch.set_num_threads(1)
        conn.send(judge(model_type))
    except BaseException as exc:  # noqa: BLE001 - the table says what happened
        conn.send(("crash", f"{type(exc).__name__}: {exc} {traceback.format_exc()[-200:]}"))


def run_one(model_type: str, timeout: float = 120.0) -> tuple[str, str]:
    """One family in its own process: a hang or a segfault is a row, not the end of the table."""
    parent, child = mp.Pipe(duplex=False)
    p = mp.get_context("fork").Process(target=_child, args=(model_type, child))
    p.start()
    got = parent.recv() if parent.poll(timeout) else ("skip", "timeout")
    p.join(5)
    if p.is_alive():
        p.kill()
    return got


VERDICTS = ("faithful", "A only", "refused", "wrong", "crash")


def main(argv: list[str] | None = None) -> int:
    from bench.cli import bench_parser

    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--only", nargs="*", help="these model types only")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    import multiprocessing.pool  # noqa: F401 - ThreadPool

    import torch  # imported once here: every forked family inherits it instead of importing it again

    import attention.capture.hf_model  # noqa: F401
    import harness.tiny_families  # noqa: F401

    torch.set_num_threads(1)
    names = args.only or candidates()
    print("| family | verdict | detail |\n|---|---|---|", flush=True)
    rows = []
    with mp.pool.ThreadPool(args.jobs) as pool:
        for name, (verdict, detail) in zip(names, pool.imap(run_one, names), strict=True):
            rows.append((verdict, detail))
            if verdict != "skip":
                print(f"| {name} | {verdict} | {detail.replace('|', '/')} |", flush=True)
    skipped = [(n, d) for n, (v, d) in zip(names, rows, strict=True) if v == "skip"]
    counts = {v: sum(r[0] == v for r in rows) for v in VERDICTS}
    print("\n" + ", ".join(f"{v}: {n}" for v, n in counts.items()) + f" (of {len(names) - len(skipped)} built)")
    print(f"left out ({len(skipped)}): " + "; ".join(f"{n} ({d[:60]})" for n, d in skipped), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

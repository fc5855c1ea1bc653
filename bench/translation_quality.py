"""How good is the built-in translator? Prints, never asserts.

    python -m bench translation_quality [--weights DIR] [--json PATH]

- exact match: greedy translations of the held-out test split equal to the reference, word for word;
- alignment: for every decoder layer × head of cross-attention, the share of target words whose
  highest weight, read at the decoder position whose OUTPUT is the word, falls on the gold source
  word (teacher-forced on the reference; words with no English counterpart are skipped).

Targets: exact match ≥ 99 %, at least one cross head ≥ 95 %.
"""

from __future__ import annotations

import sys
import time

import torch

from attention.translator import load_model, model_info
from attention.translator.corpus import build_corpus
from attention.translator.evaluate import cross_alignment, translate_batch
from bench.cli import bench_parser, write_json

EXACT_MATCH_TARGET = 0.99
ALIGNMENT_TARGET = 0.95


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__)
    p.add_argument("--weights", default=None, help="folder with model.pt (default: the shipped weights)")
    p.add_argument("--examples", type=int, default=5, help="how many wrong translations to show")
    a = p.parse_args(argv)
    torch.set_num_threads(2)

    t0 = time.time()
    model = load_model(a.weights)
    info = model_info(a.weights)
    corpus_args = info.get("corpus", {})
    corpus = build_corpus(corpus_args.get("seed", 1234), corpus_args.get("n_pairs", 80_000),
                          corpus_args.get("n_test", 2_000)) if corpus_args else build_corpus()
    test = corpus.test
    hyps = translate_batch(model, [p.source for p in test])
    wrong = [(p, h) for p, h in zip(test, hyps) if h != p.target]
    exact = 1 - len(wrong) / len(test)
    align = cross_alignment(model, test)  # (layers, heads)
    best = divmod(int(align.argmax()), align.shape[1])
    seconds = time.time() - t0

    cfg = model.cfg
    print(f"model: {cfg.n_encoder_layers}+{cfg.n_decoder_layers} layers, {cfg.n_heads} heads, d_model {cfg.d_model}, "
          f"trained {info.get('steps', '?')} steps in {info.get('train_seconds', '?')} s")
    print(f"test split: {len(test)} sentences never seen in training")

    def mark(ok: bool) -> str:
        return "ok" if ok else "BELOW TARGET"

    print(f"exact match: {exact:.2%} ({len(test) - len(wrong)}/{len(test)})   target ≥ {EXACT_MATCH_TARGET:.0%}  "
          f"{mark(exact >= EXACT_MATCH_TARGET)}")
    print(f"best cross head: layer {best[0]} head {best[1]} = {align.max():.2%}   target ≥ {ALIGNMENT_TARGET:.0%}  "
          f"{mark(align.max() >= ALIGNMENT_TARGET)}")
    print("\ncross-attention alignment with the gold source word (rows: decoder layer, columns: head)")
    print("         " + "".join(f"head {h:<5}" for h in range(align.shape[1])))
    for layer, row in enumerate(align):
        print(f"layer {layer}  " + "".join(f"{x:>7.2%}   " for x in row))
    for p, h in wrong[: a.examples]:
        print(f"\n  {p.source_text}\n  want {p.target_text}\n  got  {' '.join(h)}")
    print(f"\n({seconds:.1f} s)")

    result = {
        "test_sentences": len(test),
        "exact_match": exact,
        "cross_alignment": align.round(6).tolist(),
        "best_cross_head": {"layer": best[0], "head": best[1], "alignment": float(align.max())},
        "targets": {"exact_match": EXACT_MATCH_TARGET, "alignment": ALIGNMENT_TARGET},
        "wrong": [{"source": p.source_text, "reference": p.target_text, "output": " ".join(h)} for p, h in wrong],
        "seconds": round(seconds, 2),
    }
    write_json(a.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())

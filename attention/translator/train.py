"""Train the built-in translator from its seed and write the shipped weights.

    python -m attention.translator.train                     # the shipped weights
    python -m attention.translator.train --steps 50 --out DIR   # a quick smoke run

Everything is seeded (corpus, initialisation, batch order) and torch runs on 2 threads, so the
same command on the same machine gives the same weights: about 4 minutes on 2 idle cores. On a
busy machine two threads can slow down tenfold (they wait on each other); --threads 1 is then
much faster, but gives slightly different weights. Writes model.pt (final, float32) and
snapshots.pt (the model at ~geometrically spaced steps from 0, 8-bit, plus the loss at every step)
and alignment.json (cross-attention alignment at every snapshot, for the Learning page) into --out,
by default the package's weights/ folder.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from attention.translator import checkpoint
from attention.translator.api import WEIGHTS_DIR
from attention.translator.corpus import N_PAIRS, N_TEST, SEED, build_corpus, source_words, target_words
from attention.translator.evaluate import cross_alignment, exact_match, pad_batch
from attention.translator.model import Config, Transformer
from attention.translator.vocab import PAD_ID, Vocab

STEPS = 4_000
BATCH_SIZE = 128
LR = 2e-3
WARMUP = 400
N_SNAPSHOTS = 12  # including step 0 and the final model
THREADS = 2


def snapshot_steps(steps: int, n: int = N_SNAPSHOTS) -> list[int]:
    """Step 0, then n-1 steps spaced geometrically up to the last: attention changes fastest early."""
    if steps <= 0:
        return [0]
    first = max(1.0, steps / 200)
    return sorted({0, steps, *(round(s) for s in np.geomspace(first, steps, max(n - 1, 1)))})


def learning_rate(step: int, steps: int, lr: float, warmup: int) -> float:
    """Linear warm-up to lr, then cosine decay to lr/10."""
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def build_vocabs() -> tuple[Vocab, Vocab]:
    """Every word the grammar can produce, so a test sentence never meets an unknown word."""
    return Vocab.from_words(source_words()), Vocab.from_words(target_words())


class _Progress:
    """One status line: rewritten in place on a terminal, printed every ~2 % into a log."""

    def __init__(self, total: int, out=None) -> None:
        self.total, self.out, self.start = total, out or sys.stdout, time.time()
        self.tty = self.out.isatty()
        self.every = 1 if self.tty else max(1, total // 50)

    def update(self, step: int, loss: float) -> None:
        if step % self.every and step != self.total:
            return
        elapsed = time.time() - self.start
        eta = elapsed / max(step, 1) * (self.total - step)
        filled = int(30 * step / self.total)
        line = (f"[{'#' * filled}{'.' * (30 - filled)}] step {step}/{self.total} "
                f"loss {loss:.4f} {elapsed:5.0f}s elapsed, ~{eta:4.0f}s left")
        print(("\r" + line) if self.tty else line, end="" if self.tty else "\n", file=self.out, flush=True)

    def close(self) -> None:
        if self.tty:
            print(file=self.out)


def train(steps: int = STEPS, out: str | Path = WEIGHTS_DIR, seed: int = SEED, batch_size: int = BATCH_SIZE,
          lr: float = LR, warmup: int = WARMUP, n_snapshots: int = N_SNAPSHOTS, minutes: float | None = None,
          config: dict | None = None, n_pairs: int = N_PAIRS, n_test: int = N_TEST, evaluate: bool = True,
          threads: int = THREADS, log=print) -> dict:
    """Train, save model.pt and snapshots.pt into `out`, return a summary dict.
    `minutes` is a safety cap: training stops (and saves) early if it is exceeded. The weights are
    reproducible for a given thread count (another count may change the last bits)."""
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        return _train(steps, Path(out), seed, batch_size, lr, warmup, n_snapshots, minutes, config, n_pairs,
                      n_test, evaluate, threads, log)
    finally:
        torch.set_num_threads(previous_threads)


def _train(steps, out, seed, batch_size, lr, warmup, n_snapshots, minutes, config, n_pairs, n_test, evaluate,
           threads, log) -> dict:
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)
    t0 = time.time()

    corpus = build_corpus(seed, n_pairs, n_test)
    src_vocab, tgt_vocab = build_vocabs()
    cfg = Config(len(src_vocab), len(tgt_vocab), **(config or {}))
    model = Transformer(cfg, src_vocab, tgt_vocab)
    n_params = sum(p.numel() for p in model.parameters())
    log(f"corpus: {len(corpus.train)} train / {len(corpus.test)} test pairs; vocab {len(src_vocab)} en, "
        f"{len(tgt_vocab)} es; model {n_params:,} parameters {asdict(cfg)}")

    # The whole training split as two padded id tensors; batches are trimmed to their longest row.
    src_all = pad_batch(src_vocab, [p.source for p in corpus.train])  # (N, S)
    tgt_all = pad_batch(tgt_vocab, [p.target for p in corpus.train], bos=True, eos=True)  # (N, T+2)
    src_len = (src_all != PAD_ID).sum(1)
    tgt_len = (tgt_all != PAD_ID).sum(1)
    order_gen = torch.Generator().manual_seed(seed)

    def batches():
        while True:
            for idx in torch.randperm(len(src_all), generator=order_gen).split(batch_size):
                if len(idx) == batch_size:
                    yield (src_all[idx, : int(src_len[idx].max())], tgt_all[idx, : int(tgt_len[idx].max())])

    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.98), weight_decay=0.01)
    keep = set(snapshot_steps(steps, n_snapshots))
    snap_steps: list[int] = []
    snap_states: list[dict] = []
    losses: list[float] = []

    def snapshot(step: int) -> None:
        snap_steps.append(step)
        snap_states.append(checkpoint.quantize(model.state_dict()))

    progress = _Progress(steps)
    model.train()
    stream = batches()
    step = 0
    if 0 in keep:
        snapshot(0)
    while step < steps:
        src, tgt = next(stream)
        for group in opt.param_groups:
            group["lr"] = learning_rate(step, steps, lr, warmup)
        logits = model(src, tgt[:, :-1])  # (B, T, V): position i predicts word i+1
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt[:, 1:].reshape(-1), ignore_index=PAD_ID)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        losses.append(loss.item())
        progress.update(step, losses[-1])
        out_of_time = minutes is not None and time.time() - t0 > 60 * minutes
        if step in keep and step != steps and not out_of_time:
            snapshot(step)
        if out_of_time:
            progress.close()
            log(f"stopping early at step {step}: the {minutes} minute cap was reached")
            break
    progress.close()
    model.eval()
    train_seconds = time.time() - t0

    summary = {"seed": seed, "steps": step, "batch_size": batch_size, "lr": lr, "warmup": warmup,
               "train_seconds": round(train_seconds, 1), "final_loss": float(np.mean(losses[-50:])) if losses else None,
               "corpus": {"seed": seed, "n_pairs": n_pairs, "n_test": n_test}, "threads": threads}
    if evaluate:
        summary["test_exact_match"] = exact_match(model, corpus.test)
        summary["cross_alignment"] = cross_alignment(model, corpus.test).round(4).tolist()
        log(f"test exact match {summary['test_exact_match']:.4f}; best cross head alignment "
            f"{max(max(r) for r in summary['cross_alignment']):.4f}")

    checkpoint.save_model(out / checkpoint.MODEL_FILE, model, summary)
    checkpoint.save_snapshots(out / checkpoint.SNAPSHOTS_FILE, model, snap_steps, snap_states, losses,
                              {**summary, "final_step": step})
    # The Learning page's alignment curve, measured on the snapshots exactly as they load
    from attention.translator import snapshots as snapshot_traces
    from attention.translator.api import read_snapshots

    if evaluate:
        snapshot_traces.write_alignment(out, read_snapshots(out), summary["corpus"])
    summary["seconds"] = round(time.time() - t0, 1)
    log(f"saved {out / checkpoint.MODEL_FILE} and {out / checkpoint.SNAPSHOTS_FILE} "
        f"({len(snap_steps) + 1} snapshots) in {summary['seconds']:.0f}s")
    return summary


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=STEPS, help=f"optimizer steps (default {STEPS})")
    p.add_argument("--out", default=str(WEIGHTS_DIR), help="output folder (default: the shipped weights folder)")
    p.add_argument("--minutes", type=float, default=None, help="stop early (and save) after this many minutes")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--pairs", type=int, default=N_PAIRS, help=f"corpus size, test split included (default {N_PAIRS})")
    p.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    p.add_argument("--lr", type=float, default=LR)
    p.add_argument("--warmup", type=int, default=WARMUP)
    p.add_argument("--snapshots", type=int, default=N_SNAPSHOTS, help="snapshots including step 0 and the final")
    p.add_argument("--d-model", type=int, default=Config.d_model)
    p.add_argument("--d-ff", type=int, default=Config.d_ff)
    p.add_argument("--heads", type=int, default=Config.n_heads)
    p.add_argument("--layers", type=int, default=Config.n_encoder_layers, help="encoder and decoder layers each")
    p.add_argument("--threads", type=int, default=THREADS,
                   help=f"torch threads (default {THREADS}; the shipped weights were made with {THREADS})")
    p.add_argument("--no-eval", action="store_true", help="skip the test-split evaluation at the end")
    a = p.parse_args(argv)
    config = {"d_model": a.d_model, "d_ff": a.d_ff, "n_heads": a.heads,
              "n_encoder_layers": a.layers, "n_decoder_layers": a.layers}
    return train(steps=a.steps, out=a.out, seed=a.seed, batch_size=a.batch_size, lr=a.lr, warmup=a.warmup,
                 n_snapshots=a.snapshots, minutes=a.minutes, config=config, n_pairs=a.pairs,
                 n_test=min(N_TEST, a.pairs // 10), evaluate=not a.no_eval,
                 threads=a.threads)


if __name__ == "__main__":
    main()

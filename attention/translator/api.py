"""Translate with the built-in model and get the trace of every attention call.

    t = translate("The ball is blue.")
    t.text                      'la bola es azul .'
    t.trace.site(1, "cross")    layer 1 cross-attention: Spanish words (queries) × English words (keys)

Greedy decoding produces the words one at a time; the trace is then taken from ONE teacher-forced
pass over <bos> + the produced words, so every decoder position is seen exactly as it was when
it chose its word. Decoder position i is fed input_tokens[i] and produces query_tokens[i]:

    input_tokens   <bos>  la    bola  es    azul  .
    query_tokens   la     bola  es    azul  .     <eos>
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import torch

from attention.trace import Site, Trace, make_site
from attention.translator import checkpoint
from attention.translator.coverage import follows_grammar, is_mark
from attention.translator.model import AttentionRecord, Transformer
from attention.translator.vocab import BOS_ID, EOS, EOS_ID, tokenize

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
MODEL_NAME = "built-in English→Spanish translator"
MAX_NEW_WORDS = 40
LOW_CONFIDENCE = 0.8  # a produced word the model gave less than this probability is marked as a guess
# (on held-out sentences of the training grammar every word gets more than 0.99)


@dataclass(frozen=True)
class Translation:
    text: str  # the Spanish words joined by spaces, e.g. "la bola es azul ."
    source_tokens: tuple[str, ...]  # what the encoder read; unknown words appear as <unk>
    target_tokens: tuple[str, ...]  # the produced words, without <eos>
    unknown_words: tuple[str, ...]  # English words not in the vocabulary (never punctuation)
    trace: Trace
    # the model's own softmax probability of each produced word, one per target token
    word_probs: tuple[float, ...] = ()
    skipped_marks: tuple[str, ...] = ()  # punctuation the vocabulary lacks, left out of the input
    follows_grammar: bool = True  # the English words have a shape the training grammar produces

    @property
    def low_confidence(self) -> tuple[int, ...]:
        """Positions of the produced words the model gave less than LOW_CONFIDENCE probability."""
        return tuple(i for i, p in enumerate(self.word_probs) if p < LOW_CONFIDENCE)

    @property
    def in_distribution(self) -> bool:
        """Every word known and the sentence shaped like the training sentences: when to trust it."""
        return not self.unknown_words and self.follows_grammar


def _directory(path: str | Path | None) -> Path:
    """A weights folder, or a model.pt inside one."""
    p = WEIGHTS_DIR if path is None else Path(path)
    return p.parent if p.suffix == ".pt" else p


def read_model(path: str | Path | None = None) -> Transformer:
    """The trained model read from disk, uncached (the app keeps it in its own cache)."""
    return checkpoint.load_model_file(_directory(path) / checkpoint.MODEL_FILE)[0]


def read_snapshots(path: str | Path | None = None) -> tuple[tuple[int, Transformer], ...]:
    """(step, model) pairs from step 0 to the final model, read from disk, uncached."""
    return _read_snapshots(_directory(path))[0]


@lru_cache(maxsize=2)  # for notebooks and translate() without a model; the app passes its own
def _load_model(directory: Path) -> tuple[Transformer, dict]:
    return checkpoint.load_model_file(directory / checkpoint.MODEL_FILE)


def load_model(path: str | Path | None = None) -> Transformer:
    """The trained model (float32, eval mode), cached; the shipped weights by default. The cached
    model is shared: never modify it."""
    return _load_model(_directory(path))[0]


def model_info(path: str | Path | None = None) -> dict:
    """What training recorded with the model: steps, seconds, test exact match, …"""
    return dict(_load_model(_directory(path))[1])


def _read_snapshots(directory: Path, final: tuple[Transformer, dict] | None = None
                    ) -> tuple[tuple[tuple[int, Transformer], ...], tuple[float, ...]]:
    """The snapshots and the loss; the final model is `final` if given (the cached one), else read."""
    snapshots, loss = checkpoint.load_snapshot_file(directory / checkpoint.SNAPSHOTS_FILE)
    model, info = final or checkpoint.load_model_file(directory / checkpoint.MODEL_FILE)
    return tuple(snapshots) + ((int(info.get("steps", len(loss))), model),), tuple(loss)


@lru_cache(maxsize=1)  # for notebooks; the app keeps its own. The last snapshot is load_model()'s model.
def _load_snapshots(directory: Path) -> tuple[tuple[tuple[int, Transformer], ...], tuple[float, ...]]:
    return _read_snapshots(directory, _load_model(directory))


def load_snapshots(path: str | Path | None = None) -> tuple[tuple[int, Transformer], ...]:
    """(step, model) pairs from step 0 to the final model, in step order, cached."""
    return _load_snapshots(_directory(path))[0]


def read_loss(path: str | Path | None = None) -> tuple[float, ...]:
    """loss_history() read from disk, uncached and without the snapshots' models (the app keeps its own)."""
    return checkpoint.load_loss(_directory(path) / checkpoint.SNAPSHOTS_FILE)


def loss_history(path: str | Path | None = None) -> tuple[float, ...]:
    """The training loss at every step (entry i: the batch of update i + 1)."""
    return _load_snapshots(_directory(path))[1]


def _site(r: AttentionRecord, query_tokens, key_tokens, input_tokens=None) -> Site:
    """Batch row 0 of one recorded call -> a Site, recomputed and checked by make_site. A mask
    that hides nothing (one unpadded sentence, encoder or cross) is passed on as None."""
    mask = r.mask[0, 0].numpy()  # (query_pos, key_pos)
    return make_site(
        layer=r.layer, kind=r.kind, query_tokens=tuple(query_tokens), key_tokens=tuple(key_tokens),
        q=r.q[0].numpy(), k=r.k[0].numpy(), v=r.v[0].numpy(),  # (nh, pos, hs)
        scale=r.scale, mask=mask if mask.any() else None,
        model_weights=r.weights[0].numpy(), model_z=r.z[0].numpy(),
        name=r.name, input_tokens=None if input_tokens is None else tuple(input_tokens),
        query_inputs=None if r.x is None else r.x[0].numpy(),
        key_inputs=None if r.context is None else r.context[0].numpy(),
    )


@torch.no_grad()
def _traced(model: Transformer, text: str, source: Source, target_ids: list[int] | None,
            max_new_words: int, unknown_target: tuple[str, ...] = ()) -> Translation:
    src_vocab, tgt_vocab = model.src_vocab, model.tgt_vocab
    source_ids, dropped, unknown = source.ids, source.dropped, source.unknown
    src = torch.tensor([source_ids])  # (1, S)
    capped = False
    if target_ids is None:  # greedy decoding, one word at a time
        produced = model.generate(src, max_new_words)[0, 1:].tolist()
        if EOS_ID in produced:
            produced = produced[: produced.index(EOS_ID)]
        else:
            capped = True  # stopped at the limit of max_new_words without <eos>
    else:
        produced = list(target_ids)
    # One teacher-forced pass over <bos> + the produced words, recording every attention call.
    tgt_in = torch.tensor([[BOS_ID] + produced])  # (1, T)
    recorder: list[AttentionRecord] = []
    logits = model(src, tgt_in, recorder)  # (1, T, V)
    last = tgt_vocab.tokens[int(model.pick(logits[0, -1]))] if target_ids is None else EOS
    # position i produced word i: the probability the model's softmax gave it there
    probs = torch.softmax(logits[0, : len(produced)], dim=-1)  # (n, V)
    word_probs = tuple(float(probs[i, w]) for i, w in enumerate(produced))

    source_tokens = tuple(src_vocab.tokens[i] for i in source_ids)
    target_tokens = tuple(tgt_vocab.tokens[i] for i in produced)
    input_tokens = (tgt_vocab.tokens[BOS_ID],) + target_tokens  # fed in at each decoder position
    output_tokens = target_tokens + (last,)  # produced at each decoder position
    sites = []
    for r in recorder:
        if r.kind == "encoder":
            sites.append(_site(r, source_tokens, source_tokens))
        elif r.kind == "decoder":
            sites.append(_site(r, output_tokens, input_tokens, input_tokens))
        else:
            sites.append(_site(r, output_tokens, source_tokens, input_tokens))
    trace = Trace(text=text, model_name=MODEL_NAME, tokens=source_tokens, sites=tuple(sites), dropped_tokens=dropped,
                  unknown_words=tuple(unknown), unknown_target_words=tuple(unknown_target),
                  decoding_capped=capped, teacher_forced=target_ids is not None, capture_path="recorder",
                  expected_layers={"encoder": tuple(range(model.cfg.n_encoder_layers)),
                                   "decoder": tuple(range(model.cfg.n_decoder_layers)),
                                   "cross": tuple(range(model.cfg.n_decoder_layers))})
    return Translation(" ".join(target_tokens), source_tokens, target_tokens, tuple(unknown), trace,
                       word_probs, source.skipped_marks, source.follows_grammar)


@dataclass(frozen=True)
class Source:
    """The English text as the encoder reads it."""

    ids: list[int]
    unknown: list[str]  # words (never punctuation) read as <unk>
    dropped: int  # tokens past the model's length limit
    skipped_marks: tuple[str, ...]  # punctuation the vocabulary lacks, left out
    follows_grammar: bool


def _source(model: Transformer, text: str) -> Source:
    tokens = tokenize(text)
    vocab = model.src_vocab
    # A mark the model never saw (",", "!") carries nothing it can read: left out, and said so.
    skipped = tuple(dict.fromkeys(w for w in tokens if is_mark(w) and w not in vocab))
    words = [w for w in tokens if w in vocab or not is_mark(w)]
    if not any(not is_mark(w) for w in words):
        raise ValueError("nothing to translate: the text has no words")
    dropped = max(0, len(words) - model.cfg.max_len)
    ids, unknown = vocab.encode(words[: model.cfg.max_len])
    return Source(ids, unknown, dropped, skipped, follows_grammar(words))


def translate(text: str, model: Transformer | None = None, max_new_words: int = MAX_NEW_WORDS) -> Translation:
    """English text -> greedy Spanish translation plus the trace of all attention calls.
    `model` defaults to the shipped one (any snapshot from load_snapshots() works too)."""
    model = load_model() if model is None else model
    return _traced(model, text, _source(model, text), None, max_new_words)


def teacher_forced(text: str, target: str, model: Transformer | None = None) -> Translation:
    """Trace the model on a GIVEN Spanish target (e.g. to compare training snapshots on the same
    words). query_tokens are then the target words each position is asked to produce."""
    model = load_model() if model is None else model
    source = _source(model, text)
    target_words = tokenize(target)[: model.cfg.max_len - 1]
    target_ids, unknown_target = model.tgt_vocab.encode(target_words)
    return _traced(model, text, source, target_ids, 0, tuple(unknown_target))

"""Saving and loading the translator: one file holds everything needed to rebuild a model.

    model.pt       the final model: config, both vocabularies, float32 weights, training info
    snapshots.pt   the model as it was at chosen steps of training (8-bit weights, see below),
                   plus the loss at every step — for watching attention being learned

Snapshots are stored 8-bit to keep the repository small: every row w of a weight matrix becomes
round(w / s)·s with one scale s = max|w| / 127 per row (vectors stay float16). The snapshot
models ARE those dequantized weights, in float32, so their traces are exact for what is loaded.
The final snapshot is not stored twice: it is the float32 model in model.pt.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict
from pathlib import Path

import torch

from attention.translator.model import Config, Transformer
from attention.translator.vocab import Vocab

FORMAT = "attention.translator/1"
MODEL_FILE = "model.pt"
SNAPSHOTS_FILE = "snapshots.pt"


def _atomic_save(obj, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def _header(model: Transformer) -> dict:
    return {
        "format": FORMAT,
        "config": asdict(model.cfg),
        "src_vocab": list(model.src_vocab.tokens),
        "tgt_vocab": list(model.tgt_vocab.tokens),
    }


def _build(header: dict, state: dict[str, torch.Tensor]) -> Transformer:
    if header.get("format") != FORMAT:
        raise ValueError(f"not a translator checkpoint (format {header.get('format')!r})")
    vocabs = Vocab(tuple(header["src_vocab"])), Vocab(tuple(header["tgt_vocab"]))
    model = Transformer(Config(**header["config"]), *vocabs)
    model.load_state_dict({k: v.to(torch.float32) for k, v in state.items()})
    return model.eval()


def save_model(path: str | Path, model: Transformer, info: dict | None = None) -> None:
    state = {k: v.detach().to(torch.float32).clone() for k, v in model.state_dict().items()}
    _atomic_save({**_header(model), "state_dict": state, "info": dict(info or {})}, Path(path))


def load_model_file(path: str | Path) -> tuple[Transformer, dict]:
    """-> (model in eval mode, float32; the training info saved with it)."""
    ckpt = torch.load(Path(path), map_location="cpu", weights_only=True)
    return _build(ckpt, ckpt["state_dict"]), ckpt.get("info", {})


def quantize(state: dict[str, torch.Tensor]) -> dict:
    """Matrices -> int8 with one float16 scale per row (last axis); vectors -> float16. Packed
    into three flat tensors plus the layout, so a snapshot is three entries in the file, not ~150."""
    names, shapes, packed_int8, scales, halves = [], [], [], [], []
    for name, t in state.items():
        t = t.detach().to(torch.float32)
        names.append(name)
        shapes.append(list(t.shape))
        if t.dim() < 2:
            halves.append(t.reshape(-1).half())
            continue
        rows = t.reshape(-1, t.shape[-1])  # (rows, n)
        scale = (rows.abs().amax(dim=1) / 127).clamp_min(1e-8).half()  # (rows,)
        packed_int8.append(torch.round(rows / scale.float()[:, None]).clamp(-127, 127).to(torch.int8).reshape(-1))
        scales.append(scale)

    def cat(xs: list[torch.Tensor], dtype: torch.dtype) -> torch.Tensor:
        return torch.cat(xs) if xs else torch.zeros(0, dtype=dtype)

    return {"names": names, "shapes": shapes, "int8": cat(packed_int8, torch.int8),
            "scale": cat(scales, torch.float16), "half": cat(halves, torch.float16)}


def dequantize(packed: dict) -> dict[str, torch.Tensor]:
    state = {}
    at = {"int8": 0, "scale": 0, "half": 0}

    def take(key: str, n: int) -> torch.Tensor:
        chunk = packed[key][at[key] : at[key] + n]
        at[key] += n
        return chunk.float()

    for name, shape in zip(packed["names"], packed["shapes"]):
        numel = math.prod(shape)
        if len(shape) < 2:
            state[name] = take("half", numel).reshape(shape)
        else:
            n_rows = numel // shape[-1]
            rows = take("int8", numel).reshape(n_rows, shape[-1]) * take("scale", n_rows)[:, None]
            state[name] = rows.reshape(shape)
    return state


def save_snapshots(path: str | Path, model: Transformer, steps: list[int], states: list[dict],
                   loss: list[float], info: dict | None = None) -> None:
    """steps[i] is the step of states[i] (already quantized); the final model is not included."""
    _atomic_save(
        {**_header(model), "steps": list(steps), "states": list(states),
         "loss": torch.tensor(loss, dtype=torch.float32), "info": dict(info or {})},
        Path(path),
    )


def load_loss(path: str | Path) -> tuple[float, ...]:
    """The loss at every step from a snapshot file, no model built (a twentieth of reading them all)."""
    return tuple(float(x) for x in torch.load(Path(path), map_location="cpu", weights_only=True)["loss"])


def load_snapshot_file(path: str | Path) -> tuple[list[tuple[int, Transformer]], list[float]]:
    """-> ([(step, model)] in step order, without the final model; loss at every step)."""
    ckpt = torch.load(Path(path), map_location="cpu", weights_only=True)
    models = [(int(step), _build(ckpt, dequantize(packed))) for step, packed in zip(ckpt["steps"], ckpt["states"])]
    return models, [float(x) for x in ckpt["loss"]]

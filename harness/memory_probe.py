"""Imported before Streamlit starts (harness.app_server.streamlit_process(preimport=...)) by the class bench's
--memory: where a replica's resident memory is, asked from outside while it serves. When the file
<ATTENTION_MEMORY_PROBE>.ask appears, a thread writes <ATTENTION_MEMORY_PROBE>.json and removes the ask:

    rss            resident bytes (/proc/self/statm)
    writings       the sessions' Writings as counted for their budget (held.SESSIONS), and how many
    sessions       Streamlit's sessions, and what their states hold BESIDE the Writings (arrays, tensors and
                   Python objects reachable from each session's state and fragments; models and Writings not
                   entered), summed
    caches         the shelf, the long sites' heads, the head views' payloads (bytes each holds)
    malloc         glibc's view (malloc_info): arenas, bytes the heap has from the system, bytes in use
                   (mallinfo2: uordblks + hblkhd), bytes free inside the arenas (fordblks)
    threads        the process's threads

`trim` in the ask file's text: malloc_trim(0) first (its time kept as trim_s), and the figures after it. As harness/slow_write.py,
this reads from outside: production code has no such hook."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import re
import sys
import tempfile
import threading
import time

PATH = os.environ.get("ATTENTION_MEMORY_PROBE", "")
POLL_S = 0.1


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc():
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.mallinfo2.restype = MallInfo2
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    return libc


def malloc_figures(libc) -> dict[str, int]:
    info = libc.mallinfo2()
    with tempfile.NamedTemporaryFile(suffix=".xml") as f:
        fp = libc.fopen(f.name.encode(), b"w")
        libc.malloc_info(0, fp)
        libc.fclose(fp)
        xml = open(f.name).read()
    heaps = re.findall(r'<heap nr="\d+">.*?</heap>', xml, re.S)
    current = [int(m) for h in heaps for m in re.findall(r'<system type="current" size="(\d+)"/>', h)]
    return {"arenas": len(heaps), "from_system": sum(current), "in_use": info.uordblks + info.hblkhd,
            "mmapped": info.hblkhd, "free_in_arenas": info.fordblks}


def _skipped(obj) -> bool:
    import types

    import torch

    from attention.capture.hf_model import LoadedModel
    from attention.ui.hosting.held import Slot

    return isinstance(obj, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
                            types.FrameType, torch.nn.Module, LoadedModel, Slot, threading.Thread))


def reachable_bytes(roots: list[object], seen: set[int], limit: int = 500_000) -> dict[str, int]:
    """Arrays, tensors and Python objects reachable from roots (models, Writings' slots, modules not entered)."""
    import numpy as np
    import torch

    out = {"arrays": 0, "tensors": 0, "objects": 0}
    todo = list(roots)
    storages: set[int] = set()
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or _skipped(obj):
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            if obj.base is None:
                out["arrays"] += obj.nbytes
            else:
                todo.append(obj.base)
            continue
        if isinstance(obj, torch.Tensor):
            ptr = obj.untyped_storage().data_ptr()
            if ptr not in storages:
                storages.add(ptr)
                out["tensors"] += obj.untyped_storage().nbytes()
            continue
        out["objects"] += sys.getsizeof(obj, 0)
        todo.extend(gc.get_referents(obj))
    return out


def session_figures() -> dict[str, int]:
    from streamlit.runtime import Runtime

    sessions = Runtime.instance()._session_mgr.list_sessions()
    seen: set[int] = set()
    total = {"sessions": len(sessions), "arrays": 0, "tensors": 0, "objects": 0}
    for info in sessions:
        s = info.session
        part = reachable_bytes([s.session_state, getattr(s, "_fragment_storage", None)], seen)
        for k, v in part.items():
            total[k] += v
    return total


def snapshot(trim: bool) -> dict:
    from attention import head_cache
    from attention.ui.hosting import cache, memory, view_cache
    from attention.ui.hosting.held import SESSIONS

    libc = _libc()
    trim_s = None
    if trim:
        gc.collect()
        started = time.perf_counter()
        libc.malloc_trim(0)
        trim_s = round(time.perf_counter() - started, 4)  # what a trim costs on this heap
    return {"t": time.time(), "trim_s": trim_s, "rss": memory.rss_bytes(), "writings": SESSIONS.nbytes(), "writings_n": len(SESSIONS),
            "sessions": session_figures(),
            "caches": {"shelf": cache.shelf.usage()[0], "head_cache": head_cache.held(), "view_cache": view_cache.views.held},
            "malloc": malloc_figures(libc), "threads": threading.active_count()}


def _serve() -> None:
    ask = PATH + ".ask"
    while True:
        if os.path.exists(ask):
            try:
                trim = "trim" in open(ask).read()
                out = snapshot(trim)
            except Exception as exc:  # noqa: BLE001 - said to the bench, which shows it
                out = {"error": f"{type(exc).__name__}: {exc}"}
            with open(PATH + ".json.part", "w") as f:
                json.dump(out, f)
            os.replace(PATH + ".json.part", PATH + ".json")
            os.unlink(ask)
        time.sleep(POLL_S)


def ask(path: str, trim: bool = False, timeout_s: float = 120) -> dict:
    """The bench's side: ask the server for a snapshot and wait for it."""
    if os.path.exists(path + ".json"):
        os.unlink(path + ".json")
    with open(path + ".ask", "w") as f:
        f.write("trim" if trim else "")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if os.path.exists(path + ".json") and not os.path.exists(path + ".ask"):
            with open(path + ".json") as f:
                return json.load(f)
        time.sleep(POLL_S)
    raise TimeoutError("the server's memory probe did not answer")


if PATH:
    threading.Thread(target=_serve, name="memory-probe", daemon=True).start()

"""The Write page's session state: the model loaded with its expansion shown, the sampling settings
(clamped before the widgets draw them), and this session's Writing kept in step with the link's token ids.
The presses of "Next word" / "Write 10" are ui/pages/presses.py's.

The words written are told to the link; a run interrupted before it told the link does not mistake the
link for a way back (the ids last told, `_SYNCED`)."""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import TYPE_CHECKING

import streamlit as st

from attention.lm import sampling
from attention.blas import one_torch_thread
from attention.errors import ModelLoadError
from attention.ui.hosting import admission, cache, memory, settings
from attention.ui import load_errors, progress
from attention.ui.hosting.held import SESSIONS as held, Slot
from attention.ui.lang import t
from attention.ui.state import Keys

if TYPE_CHECKING:
    from attention.capture.hf_model import LoadedModel
    from attention.lm.writer import Limits, Writing

DEFAULT_PROMPT = "The black cat drank the milk because it was"
DEFAULTS: dict[str, object] = {Keys.WR_PROMPT: DEFAULT_PROMPT, Keys.WR_TEMPERATURE: 1.0, Keys.WR_TOP_K: 0,
                               Keys.WR_TOP_P: 1.0, Keys.WR_SAMPLED: False, Keys.WR_IDS: "", Keys.WR_STEP: 0,
                               Keys.WR_LAYER: 18, Keys.WR_HEAD: 6}
TOP_P_MIN = 0.01  # the slider's smallest step


def _empty_idle() -> None:
    """Over memory with nothing running: idle sessions' Writings go (read again from their links)."""
    if held.empty_idle():
        memory.release()


admission.gate.relievers.append(_empty_idle)
_SYNCED = "_wr_synced"  # the written ids the link was last told (absent: not yet)


def limits() -> Limits:
    from attention.lm import writer

    return writer.HOSTED if settings.hosted() else writer.LOCAL


def load_model() -> LoadedModel | None:
    """The model from the cache shelf; its first expansion drawn as a progress bar; errors in words."""
    from attention.lm import smollm2

    if not smollm2.available():
        st.error(t("write.missing"))
        return None
    if settings.hosted() and not smollm2.is_expanded():  # 1.6 GB at its peak: never inside a serving replica
        st.error(t("write.not_expanded", folder=smollm2.folder_path()))
        return None
    bar = progress.Bar()

    def reported(stage: str, done: float) -> None:
        if stage == "done" and not bar.shown:
            return  # already expanded: nothing to show
        bar(done, t("write.expanding", stage=t(f"write.stage_{stage}")))

    try:
        lm = cache.language_model(reported)
    except Exception as exc:  # any failure is said on the page, never as a traceback
        said = load_errors.said(str(exc)) if isinstance(exc, ModelLoadError) else f"{type(exc).__name__}: {exc}"
        st.error(t("write.load_failed", error=said))
        return None
    bar.done()
    return lm


def defaults() -> None:
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    if st.session_state.get(Keys.WR_SEED) is None:
        from attention.lm.writer import fresh_seed

        st.session_state[Keys.WR_SEED] = fresh_seed()


def clamped_settings(vocab: int) -> sampling.Settings:
    """The settings in session (from the link or the widgets), clamped, written back in range so the
    widgets can draw them; a notice names what was out of range."""
    ss = st.session_state
    top_k = ss.get(Keys.WR_TOP_K)
    top_p = ss.get(Keys.WR_TOP_P)
    s = sampling.settings(ss.get(Keys.WR_TEMPERATURE), None if top_k in (0, None) else top_k,
                          None if top_p is None or top_p == 1.0 else top_p, vocab=vocab)
    clamped = list(s.clamped)
    if s.top_p is not None and s.top_p < TOP_P_MIN:
        s, clamped = sampling.Settings(s.temperature, s.top_k, TOP_P_MIN, s.clamped), [*clamped, "top_p"]
    ss[Keys.WR_TEMPERATURE] = round(s.temperature, 2)
    ss[Keys.WR_TOP_K] = s.top_k or 0
    ss[Keys.WR_TOP_P] = 1.0 if s.top_p is None else round(s.top_p, 2)
    if clamped:
        st.warning(t("write.clamped", names=", ".join(dict.fromkeys(clamped))))
    return s


def ids_in_link() -> list[int]:
    out = []
    for part in str(st.session_state.get(Keys.WR_IDS) or "").split(","):
        try:
            out.append(int(part))
        except ValueError:
            break  # a damaged link: what parses up to there
    return out


def slot() -> Slot:
    """This session's slot for its Writing (ui/hosting/held.py): the budget may empty it between clicks."""
    box = st.session_state.get(Keys.WR_WRITING)
    if not isinstance(box, Slot):
        box = st.session_state[Keys.WR_WRITING] = Slot()
    return box


def current() -> Writing | None:
    """This session's Writing as it stands (None: not read yet, or emptied by the budget)."""
    return slot().value


def writing(lm: LoadedModel, prompt: str, s: sampling.Settings) -> Writing | None:
    """This session's Writing for the prompt, with the link's written tokens; None for an empty prompt.
    Read again from the prompt and the link when the budget emptied it: the same steps, bit for bit.
    The caller holds slot().lock for as long as it reads the Writing (see ui/hosting/held.py)."""
    from attention.lm import writer

    key = (prompt, limits())
    box = slot()
    w = box.value
    if w is None or box.key != key or w.lm is not lm:
        box.value = None  # the old one is not kept alongside the new one while it is read
        try:
            # reading the prompt waits its turn, as a trace does; on one torch thread, as every step is: the
            # same sums in the same order, so a Writing read again from its link is the same to the bit
            with admission.turn(), one_torch_thread():
                w = writer.Writing(lm, prompt, limits(), s)
        except ValueError:
            st.info(t("write.empty"))
            return None
        held.keep(box, key, w)
        # the prompt's read freed its temporaries into glibc's arenas, which keep the pages (a class arriving:
        # ~25 MiB a session beside its 35 MiB Writing, `python -m bench class --memory`): handed back now
        memory.trim()
    w.settings = s
    wanted = [i for i in ids_in_link() if 0 <= i < len(lm.tokenizer)]
    have = [step.token_id for step in w.steps]
    caught_up = len(have) > len(wanted) and tuple(wanted) == st.session_state.get(_SYNCED) == tuple(have[: len(wanted)])
    if caught_up:
        wanted = have  # written, and a rerun came before the link was told: not a way back
    same = next((i for i, (a, b) in enumerate(zip(wanted, have, strict=False)) if a != b), min(len(wanted), len(have)))
    if same < len(have):
        w.back(same)
    with admission.turn() if len(wanted) > same else contextlib.nullcontext(), one_torch_thread():
        for token_id in wanted[same:]:
            if w.step(token_id=token_id) is None:
                break
    held.used(box)
    remember(w, newest=caught_up)
    return w


def remember(w: Writing, newest: bool = False) -> None:
    """The written tokens into the link; the step shown kept within what exists (newest: the newest step).
    The ids told are kept last: a rerun that falls before the link is told leaves them at what the link holds."""
    written = tuple(step.token_id for step in w.steps)
    st.session_state[Keys.WR_IDS] = ",".join(str(i) for i in written)
    shown = st.session_state.get(Keys.WR_STEP)
    if newest or not isinstance(shown, int) or not 0 <= shown <= len(w.steps):
        st.session_state[Keys.WR_STEP] = len(w.steps)
    st.session_state[_SYNCED] = written


def back_to_shown(w: Writing) -> None:
    """Writing starts from the step shown: the words after it are dropped (the page said so before)."""
    shown = st.session_state.get(Keys.WR_STEP)
    if isinstance(shown, int) and shown < len(w.steps):
        w.back(shown)


def seed() -> int | None:
    """The seed a written word is drawn with (None: greedy, the likeliest)."""
    return int(st.session_state.get(Keys.WR_SEED) or 0) if st.session_state.get(Keys.WR_SAMPLED) else None


def read_ahead(w: Writing, step: int) -> None:
    """Once a word is drawn, the next one read by the model in a background thread (Writing.ahead), so a
    click on "Next word" finds the model's work done. Only when the newest step is shown (a click on an
    earlier one goes back first), and only in a free turn of the admission queue."""
    if not settings.write_ahead() or step != len(w.steps) or w.ended or w.full:
        return
    # not a daemon: the interpreter waits for it at exit (a daemon killed inside torch aborts the process)
    threading.Thread(target=_ahead, args=(w, seed()), name="write-ahead", daemon=False).start()


def _ahead(w: Writing, seed: int | None) -> None:
    with admission.gate.free_turn() as admitted:
        if admitted:
            with one_torch_thread():
                try:
                    w.ahead(seed)
                except Exception:  # noqa: BLE001 - work done ahead: failing, the click reads the word itself
                    logging.getLogger(__name__).exception("reading the next word ahead failed")


def new_prompt() -> None:
    """The prompt box changed: what was written belonged to the old prompt (and Play stops)."""
    st.session_state[Keys.WR_PLAYING] = False
    st.session_state[Keys.WR_IDS] = ""
    st.session_state[Keys.WR_STEP] = 0

"""The Write page through AppTest, in both languages: the built-in language model writes word by word,
the head view shows the step with its newest row selected, a written word takes the page back to its
step, the link rewrites the same words, and what a link gets wrong is clamped or refused in words."""

import time
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.pages import write_play
from attention.ui.state import Keys
from tests.pages.head_views import head_views, selections

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
PROMPT = "The black cat drank the milk because it was"


def open_write(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/write.py")
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_next_word_three_times_marks_the_newest_row(smollm2, lang):
    at = open_write(lang)
    assert not at.exception and not at.error
    assert at.title[0].value == i18n.t("write.title", lang)
    assert any(i18n.t("write.identity", lang) == c.value for c in at.caption)
    for _ in range(3):
        at.button(key="wr_next").click().run()
        assert not at.exception
    assert at.code[0].value == PROMPT + " the only thing"
    assert at.session_state[Keys.WR_STEP] == 3
    view = head_views(at)[0]
    n = len(view["query_tokens"])
    assert n == 9 + 3 and view["query_tokens"][-1] == "Ġthing" and view["query_labels"][-1] == "·thing"
    assert selections(at)[0] == (n - 1, -1)  # the newest row is the one selected
    a = view["numbers"]["A"]
    assert np.isnan(a[0, 1:]).all()  # causal: the first row sees only itself
    assert any("KV" in c.value for c in at.caption)  # the cache said in numbers


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_marks_for_a_leading_space_and_a_newline_are_explained(smollm2, lang):
    at = open_write(lang)
    assert i18n.t("tokens.marks", lang) in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_special_token_is_written_as_itself_in_captions_and_on_the_explain_button(smollm2, lang, monkeypatch):
    from attention.lm import why

    end = smollm2.tokenizer.convert_tokens_to_ids("<|im_end|>")
    monkeypatch.setattr(why, "target", lambda w, step: (tuple(w.ids), end))  # the token to explain: <|im_end|>
    at = open_write(lang, prompt="Hello<|im_end|>")
    assert not at.exception and not at.error
    said = [c.value for c in at.caption] + [str(b.label) for b in at.button]
    assert not any("&lt;" in x or "&gt;" in x for x in said), said
    assert i18n.t("write.prompt_rows", lang, n=2, row=1, token="`<|im_end|>`") in said
    assert i18n.t("why.button", lang, token="`<|im_end|>`", heads=270) in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_kv_cache_sentence_multiplies_out_to_the_bytes_it_states(smollm2, lang):
    import re

    at = open_write(lang)
    at.button(key="wr_next").click().run()
    head = i18n.t("write.cache", lang, row=9, token="|", cached=9, layers=30, kv=3, d=64, bytes="", size="").split("|")[0]
    said = [c.value for c in at.caption if c.value.startswith(head)]
    assert len(said) == 1
    terms = said[0].split("=")[0].split("×")  # "…: 9 tokens ", " 30 layers ", …, " 4 bytes (one float32 number) "
    factors = [int(re.findall(r"\d+", terms[0])[-1])] + [int(re.search(r"\d+", x).group()) for x in terms[1:]]
    stated = int(re.search(r"= ([\d,]+)", said[0]).group(1).replace(",", ""))
    assert int(np.prod(factors)) == stated, (factors, stated)  # the learner's own arithmetic gives the bytes said
    assert 9 * 30 * 3 * 64 * 2 * 4 == stated  # 9 cached tokens × layers × kv heads × d × K and V × 4 bytes


def test_clicking_a_written_word_goes_back_to_its_step(smollm2):
    at = open_write(ids="", prompt=PROMPT)
    at.button(key="wr_ten").click().run()
    assert at.session_state[Keys.WR_STEP] == 10
    at.session_state[Keys.WR_STEP] = 2  # what a click on the second written word sets
    at.run()
    view = head_views(at)[0]
    assert len(view["query_tokens"]) == 9 + 2 and selections(at)[0] == (10, -1)
    assert any("·only" in c.value for c in at.caption)  # the word chosen after step 2 and how
    at.button(key="wr_next").click().run()  # writing from step 2 replaces what came after it
    assert at.session_state[Keys.WR_STEP] == 3 and len(at.session_state[Keys.WR_IDS].split(",")) == 3


def test_the_link_rewrites_the_same_words_and_clamps_what_is_out_of_range(smollm2):
    first = open_write()
    first.button(key="wr_next").click().run()
    first.button(key="wr_next").click().run()
    ids = first.session_state[Keys.WR_IDS]
    at = open_write(prompt=PROMPT, ids=ids, t="99", top_p="0", layer="77")
    assert not at.exception
    assert at.code[0].value == PROMPT + " the only"
    assert at.session_state[Keys.WR_TEMPERATURE] == 5.0 and at.session_state[Keys.WR_TOP_P] == 0.01
    assert at.warning and "temperature" in at.warning[0].value
    assert at.session_state[Keys.WR_LAYER] == 0  # no layer 77: the first


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_token_that_was_not_the_likeliest_is_not_called_the_likeliest(smollm2, lang):
    """Issue 45: a link's ids (edited by hand, or drawn without sampled=1) replay with no seed; the page
    said "the likeliest" of every such token. It says so only of the likeliest, else its place."""
    from attention.lm import sampling
    from attention.lm import notebook

    likeliest, = smollm2.tokenizer(" the", add_special_tokens=False)["input_ids"]
    odd, = smollm2.tokenizer(" purple", add_special_tokens=False)["input_ids"]
    after = notebook.next_token(PROMPT + " the", smollm2, 1.0, None, None, 2_048).logits
    place = 1 + int((after > after[odd]).sum())  # by hand: the tokens the model finds likelier, plus one
    assert place > 1
    at = open_write(lang, prompt=PROMPT, ids=f"{likeliest},{odd}")
    assert not at.exception and at.code[0].value == PROMPT + " the purple"

    def chosen(step: int) -> str:
        at.session_state[Keys.WR_STEP] = step  # the prediction after `step` tokens, and the token taken
        at.run()
        head = i18n.t("write.chosen", lang, i=step + 1, token="", p="")[:4]
        return next(c.value for c in at.caption if c.value.startswith(head))

    greedy, link = i18n.t("write.chosen_how_greedy", lang), i18n.t("write.chosen_how_link", lang, rank=place)
    assert chosen(0).endswith(" — " + greedy)  # " the" is the likeliest after the prompt
    second = chosen(1)
    assert second.endswith(" — " + link) and not second.endswith(greedy)
    assert sampling.rank(at.session_state[Keys.WR_WRITING].value.steps[1].chosen_from.logits, odd) == place


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_top_k_lists_the_likeliest_before_the_cut_never_zeros_as_likeliest(smollm2, lang):
    from attention.plots.bar_table import read_table

    at = open_write(lang, top_k="3")
    assert not at.exception and not at.error
    tables = [read_table(el.proto.body) for el in at.get("html") if "nw-bars" in el.proto.body]
    assert len(tables) == 1
    head, rows = tables[0]
    assert head[-1] == i18n.t("write.chart_before", lang) and len(rows) == 10
    now = [r[1] for r in rows]
    assert all(float(p) > 0 for p in now[:3]) and now[3:] == [i18n.t("write.chart_removed", lang)] * 7
    assert "0.000" not in now and not any(r[0].startswith("<|") for r in rows)  # no special token padding the list
    before = [float(r[2]) for r in rows]
    assert before == sorted(before, reverse=True) and before[3] > 0
    said = [c.value for c in at.caption if c.value.startswith(i18n.t("write.cut_caption", lang, kept="3", vocab="|",
                                                                       removed="").split("|")[0])]
    assert len(said) == 1


def test_an_empty_prompt_is_said_in_words(smollm2):
    at = open_write(lang="zh")
    at.text_area(key=Keys.WR_PROMPT).set_value("").run()
    assert not at.exception
    assert at.info[0].value == i18n.t("write.empty", "zh")


def test_the_models_work_waits_its_turn_like_a_trace(smollm2, monkeypatch):
    """Reading the prompt and each written word hold a turn of the admission gate (ui/hosting/admission.py), so a
    busy replica queues them as it queues traces."""
    import contextlib

    from attention.ui.hosting import admission

    turns = []
    real = admission.gate.turn

    @contextlib.contextmanager
    def counted(*args, **kwargs):
        turns.append(1)
        with real(*args, **kwargs):
            yield

    monkeypatch.setattr(admission.gate, "turn", counted)
    at = open_write(text="Turns are counted here")
    read = len(turns)
    assert read >= 1  # the prompt
    at.button(key="wr_next").click().run()
    assert not at.exception and len(turns) == read + 1  # the word written


def test_next_word_makes_the_head_views_blocks_once(smollm2, monkeypatch):
    """The button's callback makes the head view's blocks; the run that follows finds them made (the view
    is sent with the run's first elements) instead of making them again."""
    from attention.headview import blocks

    made = []
    real = blocks.head_blocks
    monkeypatch.setattr(blocks, "head_blocks", lambda *a, **k: made.append(1) or real(*a, **k))
    at = open_write()
    made.clear()
    at.button(key="wr_next").click().run()
    assert not at.exception and len(made) == 1
    assert len(head_views(at)[0]["query_tokens"]) == 9 + 1


def test_play_writes_a_word_per_tick_and_pause_stops_it(smollm2):
    at = open_write()
    before = len(at.code[0].value)
    at.button(key="wr_play").click().run()  # the whole page runs: the writing fragment now ticks
    assert not at.exception and at.session_state[Keys.WR_PLAYING]
    assert at.button(key="wr_play").label == i18n.t("write.pause", "en")
    assert at.button(key="wr_next").disabled and at.button(key="wr_ten").disabled  # Play is writing
    written = at.session_state[Keys.WR_STEP]
    at.session_state["_wr_play_due"] = float("inf")  # a run before half a tick has passed: a click, no tick
    at.run()
    assert at.session_state[Keys.WR_STEP] == written
    at.session_state["_wr_play_due"] = 0.0  # the timer's run, a tick later (AppTest runs no timers)
    ticked = time.monotonic()
    at.run()
    assert not at.exception and at.session_state[Keys.WR_STEP] == written + 1
    assert len(at.code[0].value) > before
    # the next word is due half a tick after this one: a run sooner writes none (as the inf run above). Not
    # tested by running again at once: on a loaded machine the word's own run can take half a tick
    assert at.session_state["_wr_play_due"] >= ticked + write_play.PLAY_SECONDS / 2
    at.button(key="wr_play").click().run()  # Pause
    assert not at.session_state[Keys.WR_PLAYING]
    paused = at.session_state[Keys.WR_STEP]
    at.session_state["_wr_play_due"] = 0.0
    at.run()
    assert at.session_state[Keys.WR_STEP] == paused and at.button(key="wr_play").label == i18n.t("write.play", "en")
    assert not at.button(key="wr_next").disabled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_prompt_shows_its_end_and_the_view_grows_by_one_band(smollm2, lang):
    prompt = " ".join(f"The cat number {i} drank the milk." for i in range(40))
    at = open_write(lang, prompt=prompt)
    assert not at.exception and not at.error
    at.button(key="wr_next").click().run()
    shown = at.code[0].value
    hidden = prompt.index(shown[1:40])
    assert shown.startswith("…") and shown[1:].startswith(prompt[hidden:]) and len(shown) < len(prompt) // 4
    assert any(i18n.t("write.text_tail", lang, n=hidden) == c.value for c in at.caption)
    before = at.session_state[Keys.HV_SENT + "wr-head"]["bands"]
    at.button(key="wr_next").click().run()
    after = at.session_state[Keys.HV_SENT + "wr-head"]["bands"]
    assert after[:-1] == before and len(after) == len(before) + 1  # the new word is one more band, no other changed
    view = head_views(at)[0]
    assert selections(at)[0] == (len(view["query_tokens"]) - 1, -1)
    assert np.isnan(view["numbers"]["A"][-2, -1]) and not np.isnan(view["numbers"]["A"][-1, -1])


def ahead_read() -> None:
    """Wait for the words being read ahead (ui/writing.read_ahead's threads)."""
    import threading

    for th in threading.enumerate():
        if th.name == "write-ahead":
            th.join(120)


def test_the_next_word_is_read_while_the_learner_looks_at_this_one(smollm2, monkeypatch):
    """Once a word is drawn the model reads the next in the background: "Next word" takes it as read. Not
    when an earlier step is shown (the click goes back first), nor with ATTENTION_WRITE_AHEAD=0."""
    at = open_write(ids="", prompt=PROMPT)
    at.button(key="wr_next").click().run()
    ahead_read()
    w = at.session_state[Keys.WR_WRITING].value
    read = w._ahead
    assert read is not None and read.n == w.n == 9 + 1
    at.button(key="wr_next").click().run()
    assert not at.exception and w.steps[-1].rows is read.rows and w.steps[-1].label == "·only"
    ahead_read()
    at.session_state[Keys.WR_STEP] = 1  # an earlier word clicked
    w._ahead = None
    at.run()
    ahead_read()
    assert w._ahead is None
    at.session_state[Keys.WR_STEP] = 2
    monkeypatch.setenv("ATTENTION_WRITE_AHEAD", "0")
    at.run()
    ahead_read()
    assert w._ahead is None

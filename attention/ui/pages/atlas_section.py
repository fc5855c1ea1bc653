"""The Overview's "On real text" section (issue 47): every head measured over a corpus, one head chosen with
its shares on the probe and the corpus, the texts where it moves most (a button opens Explore there) and its
queries and keys on one map. Opened by a toggle: nothing is read until someone asks."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention import ModelLoadError, sources
from attention.analysis import claims
from attention.params import markdown
from attention.analysis.atlas import ROLES, Atlas
from attention.lm.atlas_corpus import OWN_MAX_WORDS, Corpus, pieces
from attention.analysis.atlas_map import joint_map
from attention.analysis.running_text import marked_body, running_pieces
from attention.analysis.token_text import readable_tokens
from attention.plots import atlas_figures
from attention.plots.head_grid import head_from_event
from attention.ui.hosting import cache, settings
from attention.ui import charts, state
from attention.ui.lang import t
from attention.ui.progress import Bar
from attention.ui.state import Keys

PAGE_MODEL, LANGUAGE_MODEL = "model", "smollm2"
BUILTIN, OWN = "builtin", "own"
HOSTED_MAX_CHARS, MAX_CHARS = 20_000, 400_000  # a person's corpus: the hosted demo reads less
PROBE_OF = {"previous": "previous", "first": "sink", "induction": "induction", "duplicate": "duplicate"}
SHOWN_EXAMPLES = 5
STAGES = ("probe", "examples", "map")  # a picked head's work, named on its progress bar


def on_grid_click() -> None:
    picked = head_from_event(st.session_state.get(Keys.OV_ATLAS_GRID))
    if picked is not None:
        st.session_state[Keys.OV_ATLAS_LAYER], st.session_state[Keys.OV_ATLAS_HEAD] = picked


def own_corpus() -> Corpus | None:
    """The person's text (pasted, or an uploaded .txt) in pieces; None (with a message) when there is none."""
    limit = HOSTED_MAX_CHARS if settings.hosted() else MAX_CHARS
    text = st.text_area(t("atlas.own_text"), key=Keys.OV_ATLAS_TEXT, height=120)
    upload = st.file_uploader(t("atlas.own_file"), type=["txt"], key=Keys.OV_ATLAS_FILE)
    if upload is not None:
        try:
            text = upload.getvalue().decode("utf-8")
        except UnicodeDecodeError:
            st.warning(t("atlas.own_bad_file"))
            return None
    if len(text) > limit:
        st.info(t("atlas.own_cap", max=limit))
        text = text[:limit]
    parts = pieces(text)
    if not parts:
        st.info(t("atlas.own_empty"))
        return None
    st.caption(t("atlas.own_caption", n=len(parts), words=OWN_MAX_WORDS))
    return Corpus(OWN, tuple(parts), (False,) * len(parts))


def builtin_corpus() -> Corpus:
    from attention.lm import corpus_writer

    corpus = cache.atlas_corpus()
    about = corpus_writer.read()
    st.caption(t("atlas.builtin_caption", n=len(corpus.texts), fixed=len(corpus.texts) - corpus.n_written,
                 written=corpus.n_written, model=about["model"], temperature=about["temperature"],
                 top_p=about["top_p"], seed=about["seed"]))
    return corpus


def chosen_head(at: Atlas) -> tuple[int, int]:
    """The head the section shows: the last clicked or picked one, kept inside the model's range."""
    layer = st.session_state.get(Keys.OV_ATLAS_LAYER)
    head = st.session_state.get(Keys.OV_ATLAS_HEAD)
    if layer not in at.layers or head not in range(at.n_heads):
        layer, head = at.layers[len(at.layers) // 2], 0
    st.session_state[Keys.OV_ATLAS_LAYER], st.session_state[Keys.OV_ATLAS_HEAD] = layer, head
    c_layer, c_head = st.columns(2)
    layer = c_layer.selectbox(t("atlas.layer"), list(at.layers), key=Keys.OV_ATLAS_LAYER)
    head = c_head.selectbox(t("atlas.head"), list(range(at.n_heads)), key=Keys.OV_ATLAS_HEAD)
    return int(layer), int(head)


def called_grid(at: Atlas) -> np.ndarray:
    """(layers, heads) bool: claims.py lets the page call the head by its largest role."""
    return np.array([[claims.corpus_role(at.head_shares(layer, h), at.head_even(layer, h), at.rows) is not None
                      for h in range(at.n_heads)] for layer in at.layers])


def head_claim(at: Atlas, layer: int, head: int, names: dict[str, str]) -> None:
    shares, even = at.head_shares(layer, head), at.head_even(layer, head)
    role = claims.corpus_role(shares, even, at.rows)
    largest = role or max(ROLES, key=lambda r: -1.0 if np.isnan(shares[r]) else shares[r])
    fields = {"layer": layer, "head": head, "role": names[largest], "share": f"{shares[largest]:.0%}",
              "even": f"{even[largest]:.0%}", "n": at.rows[largest], "min_n": claims.MIN_N}
    st.markdown(t("atlas.called" if role else "atlas.not_called", **fields))


def shares_chart(at: Atlas, layer: int, head: int, names: dict[str, str], model: str) -> None:
    probe: dict[str, float | None] = dict.fromkeys(ROLES)
    try:
        roles = cache.head_roles(model)
        probe.update({r: float(roles.scores[p][layer, head]) for r, p in PROBE_OF.items() if roles.applies(p)})
    except (ModelLoadError, ValueError, RuntimeError, OSError, IndexError):
        pass  # the probe is a comparison: the corpus's shares stand without it
    shares = at.head_shares(layer, head)
    fig = atlas_figures.shares_figure({r: shares[r] for r in ROLES}, at.head_even(layer, head), probe,
                                      names, (t("atlas.series.corpus"), t("atlas.series.even"), t("atlas.series.probe")),
                                      t("atlas.shares_title"))
    charts.show(fig, width="stretch", key="overview_atlas_shares")
    largest = max(ROLES, key=lambda r: -1.0 if np.isnan(shares[r]) else shares[r])
    st.caption(t("atlas.overlap", total=f"{np.nansum([shares[r] for r in ROLES]):.0%}", role=names[largest],
                 share=f"{shares[largest]:.0%}", rest=f"{shares['rest']:.0%}"))
    st.caption(t("atlas.probe_caption"))


def open_example(text: str, model: str, kind: str, layer: int, head: int, query: int, key: int) -> None:
    state.go_later("explore", **{Keys.TEXT: text, Keys.MODEL_PATH: model, Keys.KIND: kind,
                                 Keys.LAYER: layer, Keys.HEAD: head, Keys.SEL_Q: query, Keys.SEL_K: key})


def example_markdown(tokens: tuple[str, ...] | list[str], query: int, key: int) -> str:
    """The text up to the query as it reads (no space inside a word, none lost between words), the query
    marked blue and its key orange, then the rest of the text plain."""
    out = []
    for i, (before, body) in enumerate(running_pieces(tokens)):
        if i in (query, key):
            colour = "blue" if i == query else "orange"
            out.append(f"{before}:{colour}-background[{markdown.literal(marked_body(body))}]")
        else:
            out.append(before + markdown.literal(body))
    return "".join(out).strip()


def examples_section(at: Atlas, corpus: Corpus, layer: int, head: int, model: str) -> None:
    st.markdown(f"**{t('atlas.examples')}**")
    st.caption(t("atlas.examples_caption"))
    shown = at.examples(layer, head, SHOWN_EXAMPLES)
    if not shown:
        st.info(t("atlas.no_examples"))
    for n, e in enumerate(shown):
        written = f" *({t('atlas.written_mark')})*" if corpus.written[e.text] else ""
        c_text, c_button = st.columns([5, 1])
        c_text.markdown(example_markdown(at.tokens[e.text], e.query, e.key) + written)
        c_text.caption(t("atlas.example_numbers", weight=e.weight, share=e.share))
        c_button.button(t("atlas.open_explore"), key=f"overview_atlas_open_{n}", on_click=open_example,
                        args=(at.texts[e.text], model, at.kind, layer, head, e.query, e.key))


def map_section(at: Atlas, layer: int, head: int) -> None:
    """The map, its trust said first; a map claims.map_trusted does not trust is folded away."""
    st.markdown(f"**{t('atlas.map')}**")
    m = joint_map(at, layer, head)
    if m is None:
        return
    if m.agreement is None:
        st.info(t("atlas.map_none"))
    else:
        st.markdown(t("atlas.map_trust", rho=claims.number(m.agreement.rho, ".2f"), n=f"{m.agreement.n:,}", kept=m.kept))
    trusted = claims.map_trusted(m.agreement)
    if not trusted:  # said before the map, which is folded away
        st.warning(t("atlas.map_untrusted", layer=layer, head=head))
    where = st.container() if trusted else st.expander(t("atlas.map_folded"))
    labels = [f"{readable_tokens(at.tokens[tx])[p]} ({p})" for tx, p in zip(m.text.tolist(), m.pos.tolist(), strict=True)]
    fig = atlas_figures.map_figure(m.queries, m.keys, labels, labels, (t("atlas.map.queries"), t("atlas.map.keys")))
    charts.show(fig, where, width="stretch", key="overview_atlas_map")
    where.caption(t("atlas.map_caption", tokens=len(m.pos), texts=len(set(m.text.tolist()))))


def atlas_section(page_src, model_path: str | None) -> None:
    """page_src: the source the page shows; model_path: the sidebar's model (the link's name for it)."""
    st.subheader(t("atlas.title"))
    st.caption(t("atlas.intro"))
    models = {LANGUAGE_MODEL: t("roles.model.smollm2")}
    if page_src.predicts != "translation" and page_src != cache.source(sources.SMOLLM2):
        models = {PAGE_MODEL: t("roles.model.named", name=page_src.label()), **models}
    elif page_src.predicts == "translation":
        st.caption(t("atlas.translator"))
    names_of = {PAGE_MODEL: model_path or "", LANGUAGE_MODEL: sources.SMOLLM2}
    state.str_choice(Keys.OV_ATLAS_MODEL, list(models), default=LANGUAGE_MODEL)
    c_model, c_corpus = st.columns(2)
    which = c_model.radio(t("atlas.model"), list(models), format_func=models.get, key=Keys.OV_ATLAS_MODEL)
    corpora = {BUILTIN: t("atlas.corpus.builtin"), OWN: t("atlas.corpus.own")}
    state.str_choice(Keys.OV_ATLAS_CORPUS, list(corpora))
    which_corpus = c_corpus.radio(t("atlas.corpus"), list(corpora), format_func=corpora.get, key=Keys.OV_ATLAS_CORPUS)
    if not st.toggle(t("atlas.show"), key=Keys.OV_ATLAS):  # chosen first, read on demand
        return
    try:
        corpus = builtin_corpus() if which_corpus == BUILTIN else own_corpus()
        if corpus is None:
            return
        bar = Bar()
        at = cache.atlas(names_of[which], corpus,
                         lambda done, total: bar(done / total, t("atlas.progress", done=done, total=total)))
        bar.done()
    except (ModelLoadError, ValueError, RuntimeError, OSError) as exc:
        st.warning(t("atlas.failed", why=str(exc)))
        return
    if not at.rows["previous"]:  # every text one token long: no row has a choice of keys
        st.info(t("atlas.too_short"))
        return
    names = {r: t(f"atlas.role.{r}") for r in (*ROLES, "rest")}
    st.caption(t("atlas.definitions"))
    role_index, share = at.largest()
    layer, head = chosen_head(at)
    fig = atlas_figures.grid_figure(role_index, share, called_grid(at), [names[r] for r in ROLES], t("atlas.layer"),
                                    t("atlas.head"), t("atlas.hover"), selected=(layer, head), layers=at.layers)
    charts.show(fig, key=Keys.OV_ATLAS_GRID, on_select=on_grid_click, selection_mode="points",
                config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch")
    st.caption(t("atlas.grid_caption"))
    head_claim(at, layer, head, names)
    head_bar = Bar()  # a head picked: seconds of work, each stage named as it starts
    draws = (lambda: shares_chart(at, layer, head, names, names_of[which]),
             lambda: examples_section(at, corpus, layer, head, names_of[which]),
             lambda: map_section(at, layer, head))
    for done, (stage, draw) in enumerate(zip(STAGES, draws, strict=True)):
        head_bar(done / len(STAGES), t("atlas.head_progress", layer=layer, head=head, stage=t(f"atlas.stage.{stage}")))
        draw()
    head_bar.done()

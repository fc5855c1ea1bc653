"""Router: page config, the shared sidebar (language, image format, model folder), and the pages."""

# pandas first, in every session the same way: plotly peeks at sys.modules["pandas"] while building
# a figure, and a session that did so while another session's first `import pandas` was half done
# crashed ("partially initialized module 'pandas'"). Importing it here makes the others wait.
import pandas  # noqa: F401
import streamlit as st

from attention import blas, sources
from attention.i18n import LANGUAGES
from attention.ui import history, state
from attention.ui.hosting import fragment_rescue, settings
from attention.view import EXPLORE_TEXT
from attention.ui.charts import IMAGE_FORMATS
from attention.ui.lang import t
from attention.ui.state import Keys

fragment_rescue.install()  # a click in a fragment this session does not hold yet runs the page, never dropped
blas.one_thread_for_process()  # numpy's spinning BLAS threads would slow the next forward pass (attention/blas.py)
st.set_page_config(page_title="Attention, seen from inside", page_icon="🔍", layout="wide")
state.keep()
state.language_from_url()
pages = {name: st.Page(spec.path, title=t(spec.title_key), icon=spec.icon,
                       url_path="" if name == state.DEFAULT_PAGE else name, default=name == state.DEFAULT_PAGE)
         for name, spec in state.PAGES.items()}
# The first page is served at the root; its own name typed as an address (/explore) opens it there.
alias = st.Page(state.PAGES[state.DEFAULT_PAGE].path, url_path=state.DEFAULT_PAGE, visibility="hidden")
page = st.navigation([*pages.values(), alias])
if page.url_path == alias.url_path:
    st.switch_page(pages[state.DEFAULT_PAGE], query_params=st.query_params.to_dict())
shown = next(name for name, p in pages.items() if p.url_path == page.url_path)
state.follow()  # a click on the previous run asked for another page
landed = state.open_from_url(shown, {Keys.LANG: "en", Keys.TEXT: EXPLORE_TEXT, Keys.LAYER: 0,
                            Keys.HEAD: 0})

with st.sidebar:
    st.markdown(f"**{t('app.name')}**")
    st.caption(t("app.blurb"))
    state.str_choice(Keys.LANG, list(LANGUAGES))
    st.radio(t("app.language"), list(LANGUAGES), key=Keys.LANG, format_func=LANGUAGES.get, horizontal=True)
    state.str_choice(Keys.IMAGE_FORMAT, list(IMAGE_FORMATS))
    st.radio(t("app.image_format"), list(IMAGE_FORMATS), key=Keys.IMAGE_FORMAT, horizontal=True,
             format_func=str.upper, help=t("app.image_format_help"))
    st.toggle(t("app.palette"), key=Keys.CVD_COLOURS, help=t("app.palette_help"))
    if settings.hosted():  # a public demo never reads model folders named by a visitor (built-in names only)
        if str(st.session_state.get(Keys.MODEL_PATH) or "").strip().lower() not in sources.names():
            st.session_state[Keys.MODEL_PATH] = ""
    else:
        st.text_input(t("app.model_folder"), key=Keys.MODEL_PATH, help=t("app.model_folder_help"))
    history.one_entry_per_action()  # one Back press per view asked for

if not landed:  # the link the person came by names this view already; it is completed after the draw, once
    state.write_url(shown)  # the address is right before the page draws (a link copied at once is not stale)
page.run()
state.write_url(shown)  # and again for what the page itself changed (a choice made valid, a selection cleared)

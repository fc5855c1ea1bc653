"""Router: page config, the shared sidebar (language, model folder), and the list of pages."""

# pandas first, in every session the same way: plotly peeks at sys.modules["pandas"] while building
# a figure, and a session that did so while another session's first `import pandas` was half done
# crashed ("partially initialized module 'pandas'"). Importing it here makes the others wait.
import pandas  # noqa: F401
import streamlit as st

from attention import blas, settings
from attention.i18n import LANGUAGES
from attention.ui import state
from attention.ui.charts import IMAGE_FORMATS
from attention.ui.lang import t

blas.one_thread_for_process()  # numpy's spinning BLAS threads would slow the next forward pass (attention/blas.py)
st.set_page_config(page_title="Attention, seen from inside", page_icon="🔍", layout="wide")
state.init_from_url({"text": "The black cat drank the milk", "layer": 0, "head": 0, "lang": "en"})

pages = [
    st.Page("views/explore.py", title=t("page.explore"), icon="🔍", default=True),
    st.Page("views/translate.py", title=t("page.translate"), icon="🌐"),
    st.Page("views/learning.py", title=t("page.learning"), icon="📈"),
    st.Page("views/relevance.py", title=t("page.relevance"), icon="🎯"),
    st.Page("views/overview.py", title=t("page.overview"), icon="🗺️"),
]

with st.sidebar:
    st.markdown(f"**{t('app.name')}**")
    st.caption(t("app.blurb"))
    state.str_choice("lang", list(LANGUAGES))
    st.radio(t("app.language"), list(LANGUAGES), key="lang", format_func=LANGUAGES.get, horizontal=True,
                 persist_state="session")
    st.radio(t("app.image_format"), list(IMAGE_FORMATS), key="image_format", horizontal=True,
             format_func=str.upper, help=t("app.image_format_help"), persist_state="session")
    if settings.hosted():  # a public demo never reads model folders named by a visitor
        st.session_state["model_path"] = ""
    else:
        st.text_input(t("app.model_folder"), key="model_path", help=t("app.model_folder_help"),
                      persist_state="session")

st.navigation(pages).run()

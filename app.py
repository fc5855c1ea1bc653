"""Router: page config, the shared sidebar, and the list of pages."""

import streamlit as st

st.set_page_config(page_title="Attention, seen from inside", page_icon="🔍", layout="wide")

pages = [
    st.Page("pages/explore.py", title="Explore", icon="🔍", default=True),
]

with st.sidebar:
    st.markdown("**Attention, seen from inside**")
    st.caption("Type a sentence, pick a layer and head, click a word: see S = Q·Kᵀ, the softmax weights A "
               "and the output Z = A·V exactly as the model computed them.")
    st.text_input("Model folder (blank: all-MiniLM-L6-v2)", key="model_path",
                  help="Any local Hugging Face model folder.")

st.navigation(pages).run()

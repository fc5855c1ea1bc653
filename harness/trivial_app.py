"""The floor for browser latency: the smallest Streamlit round trip (one text box, its value written back)."""

import streamlit as st

value = st.text_input("Value", key="value")
st.write(f"You wrote: {value}")

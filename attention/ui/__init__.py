"""Streamlit glue shared by the pages (the rest of the package never imports Streamlit)."""

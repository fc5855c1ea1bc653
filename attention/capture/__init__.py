"""Capture from Hugging Face models: load a folder, record q, k, v as the model used them (imports torch,
transformers, trace, core, analysis; never Streamlit)."""

"""What the pages explain, computed from a trace: pure numpy (imports trace, core, and each other;
never torch, transformers, plotly or Streamlit)."""

"""Every plotly figure: data in, go.Figure out (imports analysis, trace, core; never Streamlit)."""
